import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { adminQuery, databaseUrl } from "./test-database";

/** Runs before each integration test file: a database of its own, and the settings the app needs. */
process.env.AUTH_SECRET = "test-secret-test-secret-test-secret-0123456789";
process.env.APP_URL = "http://localhost:3000";
delete process.env.RESEND_API_KEY;
// Images go to a local folder of this file's own, places to the offline gazetteer: no real service is called.
const uploadsRoot = await mkdtemp(path.join(os.tmpdir(), "couples-test-"));
process.env.STORAGE_DIR = path.join(uploadsRoot, "uploads");
delete process.env.S3_BUCKET;
delete process.env.GOOGLE_MAPS_API_KEY;

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
  await rm(uploadsRoot, { recursive: true, force: true });
});
