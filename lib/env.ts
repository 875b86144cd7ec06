import { z } from "zod";

/**
 * All configuration, read once and validated. Edge-safe (no Node imports): middleware
 * reads it too. Every variable here is documented in README.md.
 */
const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** An optional setting where an empty value means "not set". */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined);

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /** Public origin; unset, the app's own address on PORT (so `PORT=3005` alone gives working links). */
    APP_URL: z.url().optional(),
    DATABASE_URL: z.string().min(1).optional(),
    /** A direct (not transaction-pooled) URL of the same database, for what a pooler breaks: migrations and their session lock (Neon's integration names it so). */
    DATABASE_URL_UNPOOLED: optionalText,
    PGLITE_DIR: z.string().min(1).default(".data/pglite"),
    AUTH_SECRET: z.string().min(32).optional(),
    RESEND_API_KEY: z.string().min(1).optional(),
    EMAIL_FROM: z.string().min(3).default("Couples <hello@localhost>"),
    ENABLE_DEV_OUTBOX: booleanFlag,
    /** Google Places web service key; without it, place search uses the offline gazetteer. */
    GOOGLE_MAPS_API_KEY: optionalText,
    /** The directory's map on Google Maps (a browser key, inlined at build time); without it, the offline map. */
    NEXT_PUBLIC_GOOGLE_MAPS_BROWSER_KEY: optionalText,
    /** Uploaded images on local disk (served by /api/images/...), unless S3_BUCKET is set. */
    STORAGE_DIR: z.string().trim().min(1).default(".data/uploads"),
    /** S3-compatible image storage (AWS, R2, MinIO...): all of these but S3_ENDPOINT are then required. */
    S3_BUCKET: optionalText,
    S3_ENDPOINT: optionalText.pipe(z.url().optional()),
    S3_REGION: z.string().trim().min(1).default("us-east-1"),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    /** Public base URL the stored images are read from (bucket website, CDN), e.g. https://img.example.com. */
    S3_PUBLIC_URL: optionalText.pipe(z.url().optional()),
    /** A bucket for private images (a conversation's photos), read only through the app; else S3_BUCKET (lib/storage/s3.ts). */
    S3_PRIVATE_BUCKET: optionalText,
    /** How many reverse proxies in front of the app each append to X-Forwarded-For (0: clients reach the app's server directly). */
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /** Set by Vercel on its deployments: the client address then comes from Vercel's own header; serverless mode. */
    VERCEL: optionalText,
    /** Serverless mode elsewhere than Vercel: no local disk, no migrations at start (README, Deploy to Vercel). */
    SERVERLESS: booleanFlag,
    /** Vercel's deployment kind (production, preview, development): `preview` turns on preview mode. */
    VERCEL_ENV: optionalText,
    /** `preview` turns on preview mode where VERCEL_ENV is not set. */
    APP_ENV: optionalText,
    /** The commit a deployment was built from (Vercel sets it): the preview ribbon shows its first 7 characters. */
    VERCEL_GIT_COMMIT_SHA: optionalText,
    /** Opens /dev/outbox on a preview to a reviewer who visits /dev/outbox?access=TOKEN once. */
    PREVIEW_ACCESS_TOKEN: optionalText.pipe(z.string().min(16).optional()),
    /** Interface and port of the app's own server (server.ts); 0.0.0.0 opens it to the network. */
    HOST: z.string().trim().min(1).default("127.0.0.1"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** The platform's maximum duration of a function, in seconds: a live stream ends itself a little before it and the browser resumes. */
    LIVE_STREAM_MAX_S: z.coerce.number().int().min(5).max(3600).default(300),
    /** How long a message stays unread before its reader gets an e-mail about it, in seconds. */
    MESSAGE_EMAIL_DELAY_S: z.coerce.number().int().min(0).max(604_800).default(900),
    /** The bearer secret of POST /api/cron/due (Vercel sends it to cron routes); without it the route refuses every call. */
    CRON_SECRET: optionalText.pipe(z.string().min(16).optional()),
    /** Web Push (RFC 8292) keys, base64url; `npm run app` makes a pair once in .data/. Without all three, push is off. */
    VAPID_PUBLIC_KEY: optionalText,
    VAPID_PRIVATE_KEY: optionalText,
    /** Who runs the app, for push services to reach: a mailto: or https: URL. */
    VAPID_SUBJECT: optionalText.pipe(
      z
        .string()
        .regex(/^(mailto:|https:\/\/)/, "a mailto: or https:// URL")
        .optional(),
    ),
    /** Tests only: lets push endpoints be on this machine (the local push service stand-in). */
    PUSH_ALLOW_LOCAL_ENDPOINTS: booleanFlag,
    /** Opens /api/bench/bare, the baseline `npm run bench` compares against. */
    BENCH_BARE: booleanFlag,
  })
  .transform((e) => ({ ...e, APP_URL: e.APP_URL ?? `http://localhost:${e.PORT}` }));

export type Env = z.infer<typeof EnvSchema>;

type S3Env = Pick<Env, "S3_BUCKET" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "S3_PUBLIC_URL"> &
  Partial<Pick<Env, "S3_PRIVATE_BUCKET">>;

/**
 * With S3_BUCKET set, the other S3 settings the storage needs that are missing. Private images
 * (a conversation's photos, verification selfies) need a bucket of their own, whatever the mode:
 * in the public bucket anyone with a photo's key reads it from S3_PUBLIC_URL, past the app's
 * check of who may see it (a partner who has left, whoever they forwarded the link to).
 */
export function missingS3Settings(e: S3Env): string[] {
  if (!e.S3_BUCKET) return [];
  return (["S3_PRIVATE_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_PUBLIC_URL"] as const).filter(
    (name) => !e[name] || (name === "S3_PRIVATE_BUCKET" && e[name] === e.S3_BUCKET),
  );
}

/**
 * The whole configuration checked at start-up (server.ts, instrumentation.ts): null when it is
 * usable, else one line naming what to set, so a bad deployment stops instead of misbehaving.
 */
export function configurationProblem(source: Record<string, string | undefined> = process.env): string | null {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "configuration");
    return `Invalid configuration: ${name} is invalid (${issue.message}); set ${name} as README.md, Configuration, describes.`;
  }
  const e = parsed.data;
  // Every mode but the tests signs cookies and tokens with it (`npm run app` makes one).
  if (!e.AUTH_SECRET && e.NODE_ENV !== "test") {
    return "Invalid configuration: AUTH_SECRET is missing; set it to 32 or more random characters (e.g. `openssl rand -base64 48`).";
  }
  const missing = missingS3Settings(e);
  if (missing.length)
    return `Invalid configuration: S3_BUCKET is set, so set ${missing.join(", ")} too${missing.includes("S3_PRIVATE_BUCKET") ? " (S3_PRIVATE_BUCKET: another bucket, with no public access)" : ""}.`;
  // Switches for the tests and the bench open what production must keep shut: pushes to this
  // network's own hosts (a request the server makes for anyone who subscribes), the bench's routes,
  // the outbox (its reset and invitation links take over accounts; a local proxy makes every
  // caller look like this machine).
  if (isProduction(e)) {
    const open = (["PUSH_ALLOW_LOCAL_ENDPOINTS", "BENCH_BARE", "ENABLE_DEV_OUTBOX"] as const).filter((name) => e[name]);
    if (open.length) return `Invalid configuration: ${open.join(", ")} is for tests and the bench only; unset it in production.`;
  }
  // A function instance has no lasting disk and no embedded database worth keeping.
  if (isServerless(e)) {
    // With S3_BUCKET set, the rest was checked above.
    const s3 = e.S3_BUCKET
      ? []
      : (["S3_BUCKET", "S3_PRIVATE_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_PUBLIC_URL"] as const).filter(
          (name) => !e[name],
        );
    const needed = [...(e.DATABASE_URL ? [] : ["DATABASE_URL"]), ...s3];
    if (needed.length)
      return `Invalid configuration: serverless mode (${e.VERCEL ? "VERCEL" : "SERVERLESS=1"}) keeps nothing on local disk; set ${needed.join(", ")}.`;
  }
  return null;
}

/** Serverless mode: on Vercel, or SERVERLESS=1. No PGlite, no local disk, migrations only as a release step. */
export const isServerless = (e: Pick<Env, "VERCEL" | "SERVERLESS"> = env()): boolean => Boolean(e.VERCEL) || e.SERVERLESS;

/** The production deployment (VERCEL_ENV=production on Vercel, APP_ENV=production elsewhere). */
export const isProduction = (e: Pick<Env, "VERCEL_ENV" | "APP_ENV"> = env()): boolean => (e.VERCEL_ENV ?? e.APP_ENV) === "production";

/**
 * Why the seed (`npm run db:seed`, the demo or the bench's --scale) must not run here: its accounts
 * sign in with the public DEMO_PASSWORD. Either setting naming production refuses it, whichever of
 * the two the platform reads, so a mixed-up pair cannot let it through; null where it may run.
 */
export const seedRefusal = (e: Pick<Env, "VERCEL_ENV" | "APP_ENV"> = env()): string | null =>
  e.VERCEL_ENV === "production" || e.APP_ENV === "production"
    ? "The seed writes accounts with a public password (DEMO_PASSWORD): it never runs in the production deployment."
    : null;

/** Preview mode: a deployment made for review (VERCEL_ENV=preview on Vercel, APP_ENV=preview elsewhere). */
export const isPreview = (e: Pick<Env, "VERCEL_ENV" | "APP_ENV"> = env()): boolean => (e.VERCEL_ENV ?? e.APP_ENV) === "preview";

let cached: Env | undefined;

/** The configuration `source` describes; throws, naming every invalid setting, when it does not parse. */
export function readEnv(source: Record<string, string | undefined>): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function env(): Env {
  cached ??= readEnv(process.env);
  return cached;
}

/** The secret that encrypts session cookies and access tokens and signs CSRF tokens. */
export function authSecret(): string {
  const secret = env().AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET must be set (at least 32 characters); `npm run app` creates one under .data/.");
  return secret;
}

export const isSecureOrigin = () => env().APP_URL.startsWith("https://");

/**
 * The outbox is readable only while no provider is configured outside production, or when forced
 * (a production build for the browser tests); never in the production deployment.
 */
export function devOutboxEnabled(): boolean {
  const e = env();
  if (isProduction(e)) return false;
  return e.ENABLE_DEV_OUTBOX || (!e.RESEND_API_KEY && e.NODE_ENV !== "production");
}

/** E-mail leaves through Resend only when it is configured and this is not a preview: a preview's mail stays in the outbox. */
export const sendsRealEmail = (e: Pick<Env, "RESEND_API_KEY" | "VERCEL_ENV" | "APP_ENV"> = env()): boolean =>
  Boolean(e.RESEND_API_KEY) && !isPreview(e);
