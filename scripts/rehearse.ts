/**
 * `npm run rehearse`: the deployment, rehearsed on one machine. Builds once (a preview build,
 * into .next-rehearse), applies the migrations as the release step, then starts two production
 * instances in serverless mode (SERVERLESS=1: no PGlite, no local disk, no migrations at start;
 * APP_ENV=preview: the first instance seeds the demo on the empty database) on one fresh Postgres
 * database and one S3-compatible bucket in memory, behind a local edge that behaves like the
 * platform's (scripts/rehearse/edge.ts): round-robin with no stickiness, 413 over 4.5 MB,
 * responses cut at REHEARSE_MAX_DURATION_S (20 s by default), one X-Forwarded-For hop. Then
 * the browser journeys of tests/rehearsal run through the edge. Web Push is on, towards the tests'
 * local push service stand-in (tests/support/push-stand-in.ts): its certificate is made here,
 * before the instances start, so they trust it (NODE_EXTRA_CA_CERTS), and local endpoints are
 * admitted by the explicit test setting PUSH_ALLOW_LOCAL_ENDPOINTS. The journeys may reach each
 * instance directly (REHEARSE_INSTANCES) and run its due work (REHEARSE_CRON_SECRET).
 *
 * Ports: REHEARSE_PORT (3300) is the edge, +1 the bucket, +2 and +3 the instances.
 * REHEARSE_SKIP_BUILD=1 reuses the last build; arguments after `--` go to Playwright (one journey,
 * repeated: `npm run rehearse -- -g "six photos" --repeat-each 5`). Needs the machine's Postgres (TEST_DATABASE_URL);
 * without it the rehearsal is skipped, saying so.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import webpush from "web-push";
import { MAX_REQUEST_BYTES } from "@/lib/http/body";
import { selfSignedCertificate } from "@/tests/support/push-stand-in";
import { startBucket } from "./rehearse/bucket";
import { startEdge } from "./rehearse/edge";

const BASE_PORT = Number(process.env.REHEARSE_PORT ?? 3300);
const MAX_DURATION_S = Number(process.env.REHEARSE_MAX_DURATION_S ?? 20);
const DIST_DIR = process.env.REHEARSE_DIST_DIR ?? ".next-rehearse";
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const BUCKET = "rehearsal";
const ORIGIN = `http://localhost:${BASE_PORT}`;

const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A command in its own process group (so stopping it stops what it forks); resolves with its exit code. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, options: { quiet?: boolean } = {}): Promise<number> {
  const child = spawn(command, args, { env, stdio: ["ignore", options.quiet ? "ignore" : "inherit", "inherit"], detached: true });
  children.push(child);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
}

function stopAll(): void {
  for (const child of children) {
    if (child.exitCode !== null || !child.pid) continue;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // gone already
    }
  }
}

async function admin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  if (
    !(await admin((sql) => sql`select 1`).then(
      () => true,
      () => false,
    ))
  ) {
    console.log(`Rehearsal skipped: it needs Postgres (two instances on one database), and none answers at ${ADMIN_URL}.`);
    return 0;
  }
  const started = Date.now();
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    } catch {
      return "0000000";
    }
  })();
  const previewToken = randomBytes(24).toString("base64url");
  const cronSecret = randomBytes(24).toString("base64url");
  const vapid = webpush.generateVAPIDKeys();
  const pushCertificateDir = mkdtempSync(path.join(os.tmpdir(), "rehearse-push-"));
  const pushCertificate = path.join(pushCertificateDir, "stand-in.json");
  const certificate = selfSignedCertificate();
  writeFileSync(pushCertificate, JSON.stringify(certificate));
  writeFileSync(path.join(pushCertificateDir, "cert.pem"), certificate.cert);
  // What a preview deployment is given: the platform's and the project's settings.
  const deployment: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: DIST_DIR,
    SERVERLESS: "1",
    APP_ENV: "preview",
    VERCEL_GIT_COMMIT_SHA: commit,
    PREVIEW_ACCESS_TOKEN: previewToken,
    APP_URL: ORIGIN,
    AUTH_SECRET: randomBytes(36).toString("base64url"),
    S3_BUCKET: BUCKET,
    S3_PRIVATE_BUCKET: `${BUCKET}-private`,
    S3_ENDPOINT: `http://127.0.0.1:${BASE_PORT + 1}`,
    S3_ACCESS_KEY_ID: "rehearsal",
    S3_SECRET_ACCESS_KEY: "rehearsal-secret",
    S3_PUBLIC_URL: `${ORIGIN}/_bucket`,
    DATABASE_POOL_SIZE: "3",
    TRUSTED_PROXY_HOPS: "1",
    HOST: "127.0.0.1",
    CRON_SECRET: cronSecret,
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: "mailto:push@rehearsal.example.com",
    PUSH_ALLOW_LOCAL_ENDPOINTS: "true",
    NODE_EXTRA_CA_CERTS: path.join(pushCertificateDir, "cert.pem"),
  };
  for (const name of ["PGLITE_DIR", "RESEND_API_KEY", "ENABLE_DEV_OUTBOX", "STORAGE_DIR", "BENCH_BARE", "VERCEL", "VERCEL_ENV"])
    delete deployment[name];

  // The commit the build's ribbon names (prerendered pages carry it from their build).
  const builtCommit = `${DIST_DIR}/REHEARSE_COMMIT`;
  // The compiled server is the build's last step: with it, the build is whole.
  const server = path.join(DIST_DIR, "server.mjs");
  if (process.env.REHEARSE_SKIP_BUILD === "1" && existsSync(server)) {
    console.log(`Reusing the build in ${DIST_DIR}/.`);
    deployment.VERCEL_GIT_COMMIT_SHA = existsSync(builtCommit) ? readFileSync(builtCommit, "utf8").trim() : commit;
  } else {
    console.log(`Building the preview into ${DIST_DIR}/...`);
    if ((await run("npm", ["run", "--silent", "build"], deployment)) !== 0) throw new Error("the build failed");
    writeFileSync(builtCommit, commit);
  }

  const name = `rehearse_${BASE_PORT}_${Date.now()}`;
  await admin(async (sql) => {
    for (const { datname } of await sql`select datname from pg_database where datname like ${`rehearse_${BASE_PORT}_%`}`)
      await sql.unsafe(`drop database if exists "${datname}" with (force)`);
    await sql.unsafe(`create database ${name}`);
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  deployment.DATABASE_URL = url.toString();
  try {
    // The release step: the instances never migrate themselves.
    if ((await run("npm", ["run", "--silent", "db:migrate"], deployment)) !== 0) throw new Error("the release step (db:migrate) failed");
    const bucket = await startBucket(BASE_PORT + 1, BUCKET);
    const instances = [BASE_PORT + 2, BASE_PORT + 3];
    // Started together: both race to seed the empty preview database; the migration lock lets one.
    // The app's server as `npm start` runs it, compiled into the build (scripts/build-server.ts).
    const exited = instances.map((port) => run(process.execPath, [server], { ...deployment, PORT: String(port) }, { quiet: true }));
    const deadline = Date.now() + 120_000;
    for (const port of instances) {
      while (!(await answers(`http://127.0.0.1:${port}/api/health?ready=1`))) {
        if (Date.now() > deadline) throw new Error(`the instance on port ${port} did not become ready`);
        await sleep(500);
      }
    }
    const edge = await startEdge({
      port: BASE_PORT,
      instances: instances.map((port) => `http://127.0.0.1:${port}`),
      maxBodyBytes: MAX_REQUEST_BYTES,
      maxDurationMs: MAX_DURATION_S * 1000,
      routes: [{ prefix: "/_bucket/", upstream: `http://127.0.0.1:${BASE_PORT + 1}/${BUCKET}/` }],
    });
    console.log(
      `Two instances (ports ${instances.join(", ")}) behind the edge at ${ORIGIN}: round-robin, 413 over ${MAX_REQUEST_BYTES / 1e6} MB, responses cut at ${MAX_DURATION_S} s.`,
    );
    const code = await run("npx", ["playwright", "test", "-c", "tests/rehearsal/playwright.config.ts", ...process.argv.slice(2)], {
      ...process.env,
      REHEARSE_ORIGIN: ORIGIN,
      PREVIEW_ACCESS_TOKEN: previewToken,
      REHEARSE_COMMIT: deployment.VERCEL_GIT_COMMIT_SHA!.slice(0, 7),
      REHEARSE_INSTANCES: instances.map((port) => `http://127.0.0.1:${port}`).join(","),
      REHEARSE_CRON_SECRET: cronSecret,
      REHEARSE_VAPID_PUBLIC_KEY: vapid.publicKey,
      REHEARSE_PUSH_CERTIFICATE: pushCertificate,
    });
    console.log(
      `\nRehearsal ${code === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s: requests per instance ${edge.stats.byInstance.join(" / ")}, ${edge.stats.refused413} refused with 413, ${edge.stats.cut} cut at ${MAX_DURATION_S} s, ${bucket.objects.size} objects in the bucket.`,
    );
    await edge.close();
    stopAll();
    await Promise.all(exited);
    await bucket.close();
    return code;
  } finally {
    stopAll();
    await admin((sql) => sql.unsafe(`drop database if exists ${name} with (force)`)).catch(() => {});
    rmSync(pushCertificateDir, { recursive: true, force: true });
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => (stopAll(), process.exit(130)));
let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`rehearse failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  stopAll();
}
process.exit(exitCode);
