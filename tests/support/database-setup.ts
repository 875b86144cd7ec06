import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { adminQuery, databaseUrl } from "./test-database";

/** Runs before each integration test file: a database of its own, and the settings the app needs. */
process.env.AUTH_SECRET = "test-secret-test-secret-test-secret-0123456789";
process.env.APP_URL = "http://localhost:3000";
delete process.env.RESEND_API_KEY;

const template = inject("templateDatabase");
if (template) {
  const name = `${template}_f${randomBytes(4).toString("hex")}`;
  await adminQuery((sql) => sql.unsafe(`create database ${name} template ${template}`));
  process.env.DATABASE_URL = databaseUrl(name);
} else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DIR = "memory://";
}

afterAll(async () => {
  const { closeDb } = await import("@/db/client");
  await closeDb();
});
