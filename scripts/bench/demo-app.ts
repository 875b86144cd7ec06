/**
 * The demo app the page sections measure (lighthouse, pages): the bench's production build and
 * server on a fresh database, migrated and seeded with the demo data, then what the seed does not
 * make, made through the API as couples make it: a conversation of Marisol's with a demo couple
 * that has every photo (Perpetua & Silvanus: a hello, accepted, CONVERSATION_MESSAGES messages), and
 * a newly registered account still to be onboarded. Marisol and the newcomer sign in through the
 * /login form in a browser; their session cookies are what the sections send.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { chromium } from "@playwright/test";
import { DEMO_COUPLES, DEMO_PASSWORD, demoEmail, MARISOL_POSTS } from "../../lib/demo/data";
import { onCleanup } from "./cleanup";
import { addressOf, callJson } from "./client";
import { PORT } from "./config";
import { pgliteDatabase, postgresDatabase } from "./databases";
import { appEnv, ensureBuild, newSecret, startServer } from "./server";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TSX_CLI = path.join("node_modules", "tsx", "dist", "cli.mjs");
const ONBOARDING_PASSWORD = "Lighthouse#Phone26";
/** The couple whose profile is measured: a finished demo couple, so it has every photo a profile shows. */
export const PROFILED = DEMO_COUPLES[1]!;

/** A script of this repository under tsx with the server's conditions (migrate, seed). */
export function runScript(script: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, "--conditions", "react-server", script], {
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${script} failed (exit ${code})`))));
  });
}

/** A new account through the API, verified through the link the dev outbox holds: its profile is still to do. */
async function registerForOnboarding(origin: string): Promise<string> {
  const email = `lighthouse-${Date.now()}@bench.couples.test`;
  const registered = await fetch(`${origin}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: ONBOARDING_PASSWORD, firstName: "Robin", lastName: "Hart", dateOfBirth: "1991-06-15" }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  // The e-mail is sent after the response: poll the outbox for it.
  for (let attempt = 0; attempt < 50; attempt++) {
    const outbox = (await (await fetch(`${origin}/api/dev/outbox?${new URLSearchParams({ to: email })}`)).json()) as {
      messages: { text: string }[];
    };
    const link = outbox.messages[0]?.text.match(/https?:\/\/\S+\/verify-email\?\S+/)?.[0];
    if (link) {
      const token = new URL(link).searchParams.get("token");
      const verified = await fetch(`${origin}/api/email-verification/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, email }),
      });
      if (!verified.ok) throw new Error(`verify: ${verified.status}`);
      return email;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the verification e-mail never reached the outbox");
}

/** Signs in through the /login form, as a person would; answers the Cookie header the browser then sends. */
export async function signInCookie(origin: string, email: string, password: string, lands: RegExp): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Let's Go!" }).click();
    await page.waitForURL(lands);
    return (await page.context().cookies(origin)).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

/** The id of the demo couple's profile Marisol opens, through the directory's search by a partner's first name. */
async function profiledCoupleId(origin: string, cookie: string): Promise<string> {
  const name = PROFILED.partnerA.firstName;
  const response = await fetch(`${origin}/api/directory?${new URLSearchParams({ q: name })}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`directory search: ${response.status}`);
  const { data } = (await response.json()) as { data: { coupleId: string; coupleName: string }[] };
  const found = data.find((card) => card.coupleName.includes(name));
  if (!found) throw new Error(`the directory does not show ${name}'s couple`);
  return found.coupleId;
}

/** The address the demo app's own set-up calls come from (the benchmarking range, as client.ts's). */
const SET_UP_ADDRESS = addressOf(4000);

/** A call of the app's API with a bearer token (the password grant's), as a phone app makes it; answers its `data`. */
async function api<T>(token: string, pathname: string, body?: unknown): Promise<T> {
  const authorization = `Bearer ${token}`;
  const init: RequestInit =
    body === undefined
      ? { headers: { authorization } }
      : { method: "POST", headers: { authorization, "content-type": "application/json" }, body: JSON.stringify(body) };
  return (await callJson(pathname, SET_UP_ADDRESS, init)).data as T;
}

async function bearer(email: string): Promise<string> {
  const body = await callJson("/api/auth/token", SET_UP_ADDRESS, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", email, password: DEMO_PASSWORD }),
  });
  return body.access_token as string;
}

/** How many messages the measured conversation holds: more than one page of the thread. */
const CONVERSATION_MESSAGES = 40;

/**
 * A conversation of Marisol's with the profiled couple, as couples make one (the demo seed has none):
 * her hello, both of them accepting, then CONVERSATION_MESSAGES messages taking turns. Answers its id.
 */
async function demoConversation(coupleId: string): Promise<string> {
  const marisol = await bearer(demoEmail("Marisol"));
  const partners = [PROFILED.partnerA.firstName, PROFILED.partnerB.firstName];
  const [first, second] = await Promise.all(partners.map((name) => bearer(demoEmail(name))));
  await api(marisol, "/api/connections", { coupleId, note: "Hello from Lisbon! We loved your photos from the coast." });
  const [request] = await api<{ id: string }[]>(first!, "/api/connections?box=incoming");
  if (!request) throw new Error("the hello did not arrive");
  for (const token of [first!, second!]) {
    const answer = await api<{ status: string; conversationId?: string }>(token, `/api/connections/${request.id}/accept`, {});
    if (answer.conversationId) {
      for (let k = 0; k < CONVERSATION_MESSAGES; k++) {
        const body = k % 2 ? `Sounds good, shall we say the weekend? (${k})` : `We found a place by the river you would like. (${k})`;
        await api(k % 2 ? first! : marisol, `/api/conversations/${answer.conversationId}/messages`, { body });
      }
      return answer.conversationId;
    }
  }
  throw new Error("the hello was accepted by both partners and no conversation opened");
}

export type DemoApp = {
  /** localhost, not 127.0.0.1: the app's origin (APP_URL), whose cookies the browser keeps. */
  origin: string;
  server: ChildProcess;
  /** The demo user Marisol's session cookie. */
  marisol: string;
  /** A verified account whose profile is still to do (its session cookie): /onboarding. */
  newcomer: string;
  /** The profiled couple's id, Marisol's conversation with them, and a forum thread of hers with replies. */
  profiledId: string;
  conversationId: string;
  threadId: string;
};

/** Builds if needed, starts the server on its own fresh database (dropped at the end) and makes the demo app. */
export async function startDemoApp(label: string): Promise<DemoApp> {
  await ensureBuild();
  const database = (await postgresDatabase()) ?? pgliteDatabase();
  onCleanup(database.drop);
  const env = { ...appEnv(database.env, newSecret()), ENABLE_DEV_OUTBOX: "true" };
  console.log(`\n== ${label}, on ${database.label} (migrate and demo seed)...`);
  await runScript("scripts/migrate.ts", env);
  await runScript("scripts/seed/main.ts", env);
  const { child } = await startServer(env);
  const origin = `http://localhost:${PORT}`;
  const marisol = await signInCookie(origin, demoEmail("Marisol"), DEMO_PASSWORD, /\/dashboard$/);
  const newcomer = await signInCookie(origin, await registerForOnboarding(origin), ONBOARDING_PASSWORD, /\/onboarding$/);
  const profiledId = await profiledCoupleId(origin, marisol);
  const conversationId = await demoConversation(profiledId);
  return { origin, server: child, marisol, newcomer, profiledId, conversationId, threadId: MARISOL_POSTS[0].id };
}
