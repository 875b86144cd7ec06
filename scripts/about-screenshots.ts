/**
 * The about page's two pictures (public/screenshots): the directory and a conversation on a phone, as
 * the demo couples see them. Run once against a freshly seeded build (`npm run db:seed` data,
 * e.g. the browser tests' server) and commit the files:
 *   BASE_URL=http://localhost:3170 node --import tsx scripts/about-screenshots.ts
 * It opens a conversation between two demo couples, so a second run on the same database fails.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import sharp from "sharp";
import { DEMO_PASSWORD, demoEmail, directoryEmail } from "../lib/demo/data";

const BASE_URL = process.env.BASE_URL ?? "http://localhost:3000";
const OUT = path.join(import.meta.dirname, "..", "public", "screenshots");
/** Each picture stays small enough for a phone on a slow network. */
const MAX_BYTES = 150_000;

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  await context.addInitScript(() => window.localStorage.setItem("theme", "light"));
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Let's Go!" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return page;
}

/** A JSON call as the signed-in person in `page`, with their CSRF token; the answer's data. */
async function call<T>(page: Page, url: string, data?: unknown): Promise<T> {
  const { csrfToken } = (await (await page.request.get("/api/csrf-token")).json()) as { csrfToken: string };
  const response = await page.request.post(url, { headers: { "X-CSRF-Token": csrfToken }, data });
  if (!response.ok()) throw new Error(`${url}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

/** Every image on the first screen has loaded (a screenshot with a half-drawn face would be a poor first look). */
const imagesLoaded = (page: Page) =>
  page.waitForFunction(() =>
    [...document.images]
      .filter((image) => image.getBoundingClientRect().top < window.innerHeight)
      .every((image) => image.complete && image.naturalWidth > 0),
  );

async function save(page: Page, name: string) {
  // The push prompt (after a couple's first accepted hello, where the server sends pushes) answered: the picture shows the page.
  const notNow = page.getByRole("button", { name: "Not now" });
  if (await notNow.isVisible()) {
    await notNow.click();
    await notNow.waitFor({ state: "hidden" });
  }
  const png = await page.screenshot();
  const file = path.join(OUT, `${name}.webp`);
  const info = await sharp(png).webp({ quality: 72 }).toFile(file);
  if (info.size > MAX_BYTES) throw new Error(`${file} is ${info.size} bytes, over ${MAX_BYTES}`);
  console.log(`${file}: ${info.width}x${info.height}, ${info.size} bytes`);
}

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  const [marisol, thaddeus, ines, rafael] = await Promise.all([
    signedIn(browser, demoEmail("Marisol")),
    signedIn(browser, demoEmail("Thaddeus")),
    signedIn(browser, directoryEmail("Ines")),
    signedIn(browser, directoryEmail("Rafael")),
  ]);

  await marisol!.goto("/directory");
  await imagesLoaded(marisol!);
  await save(marisol!, "directory");

  // Marisol says hello to Ines & Rafael, Ines accepts, and the four plan a walk.
  await marisol!.goto("/directory?q=Ines");
  const href = await marisol!
    .getByRole("list", { name: "Couples" })
    .getByRole("link")
    .filter({ hasText: "Ines & Rafael" })
    .first()
    .getAttribute("href");
  const coupleId = href!.split("/").pop()!;
  const request = await call<{ id: string }>(marisol!, "/api/connections", {
    coupleId,
    note: "Hi Ines and Rafael! We live in Lisbon too and love a long walk followed by a long lunch. Fancy meeting up?",
  });
  const { conversationId } = await call<{ conversationId: string }>(ines!, `/api/connections/${request.id}/accept`);
  const lines: [Page, string][] = [
    [ines!, "Hello Marisol and Thaddeus! Yes please. Rafael knows a lovely trail above Sintra."],
    [rafael!, "About two hours, with a view of the sea at the end. Saturday morning?"],
    [thaddeus!, "Saturday works for us. Meet at Sintra station at 9?"],
    [marisol!, "Perfect. We'll bring pastéis de nata for the top!"],
  ];
  for (const [page, body] of lines) await call(page, `/api/conversations/${conversationId}/messages`, { body });
  await marisol!.goto(`/messages/${conversationId}`);
  await marisol!.getByRole("log", { name: "Messages" }).getByText("pastéis de nata for the top").waitFor();
  await imagesLoaded(marisol!);
  await save(marisol!, "conversation");
} finally {
  await browser.close();
}
