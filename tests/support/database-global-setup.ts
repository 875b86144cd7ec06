import type { TestProject } from "vitest/node";
import { adminQuery, databaseUrl, postgresAnswers } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string | null;
  }
}

/**
 * Builds one migrated template database per run; every test file then gets its own copy
 * (CREATE DATABASE ... TEMPLATE), so files never see each other's rows.
 */
export default async function setup(project: TestProject) {
  if (!(await postgresAnswers())) {
    console.warn("[tests] Postgres did not answer: integration tests run on in-memory PGlite.");
    project.provide("templateDatabase", null);
    return;
  }
  const template = `tmpl_${process.pid}_${Date.now()}`;
  await adminQuery((sql) => sql.unsafe(`create database ${template}`));
  process.env.DATABASE_URL = databaseUrl(template);
  const { openDatabase } = await import("@/db/client");
  const handle = await openDatabase(databaseUrl(template));
  await handle.migrate();
  await handle.close();
  project.provide("templateDatabase", template);
  return async () => {
    await adminQuery(async (sql) => {
      const rows = await sql<{ datname: string }[]>`select datname from pg_database where datname like ${`${template}%`}`;
      for (const { datname } of rows) await sql.unsafe(`drop database if exists ${datname} with (force)`);
    });
  };
}
