import { readFile } from "node:fs/promises";
import type { Browser, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { axe, LAPTOP, noHorizontalScroll, PHONE, THEMES } from "./checks";
import { asSeeded, runDatabase } from "./database";
import { csrfToken, queueRow, signIn, startConversation } from "./support";

/**
 * From talking to meeting: four people of two couples (phones and laptops, both themes) in one
 * conversation. One proposes a plan at a place found with the place search; the others answer on
 * the card that changes live for all four; one moves the time and everyone is asked again; all
 * four go ('Confirmed'); one downloads the calendar file; a friend opens the shared link in a
 * fifth context without an account. Then, with the place search down, the plan moves to within two
 * hours at a place typed by hand; the reminders reach those going or maybe (the due work run as
 * the dev outbox runs it); once the meetup is over each of the four answers 'How was it?', and
 * 'Something went wrong' opens the report with the plan attached; after a meetup both couples
 * called 'Great', 'Plan again' starts the next from it. axe-core on each screen, phone
 * and laptop, light and dark. Seeded directory couples no other spec uses (lib/demo).
 */
test.describe.configure({ mode: "serial" });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
const LIVE = { timeout: 20_000 };

type Person = { page: Page; firstName: string; coupleName: string; label: string };

async function person(
  browser: Browser,
  [first, partner]: [string, string],
  me: 0 | 1,
  viewport: typeof PHONE,
  theme: "light" | "dark",
): Promise<Person> {
  const context = await browser.newContext({ viewport, colorScheme: theme, acceptDownloads: true });
  await context.addInitScript((chosen) => window.localStorage.setItem("theme", chosen), theme);
  const page = await context.newPage();
  const firstName = me === 0 ? first : partner;
  await signIn(page, { email: directoryEmail(firstName), password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return { page, firstName, coupleName: `${first} & ${partner}`, label: `${firstName}-${viewport.width}-${theme}` };
}

async function check(who: Person, name: string, testInfo: TestInfo) {
  await noHorizontalScroll(who.page);
  await axe(who.page);
  await who.page.screenshot({ path: testInfo.outputPath(`${name}-${who.label}.png`), fullPage: true });
}

const card = (who: Person) => who.page.getByRole("article", { name: "Dinner and a walk" });

/** The place search the plan form calls (as location-autocomplete.spec.ts names it). */
const SEARCH = "**/api/locations/search/public?*";

/** Lisbon's wall clock `minutes` from now, as the date and time inputs take it. */
function lisbonIn(minutes: number) {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Lisbon",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const part = Object.fromEntries(format.formatToParts(Date.now() + minutes * 60_000).map(({ type, value }) => [type, value]));
  return { date: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` };
}

/** The due work (reminders, 'How was it?') run now, as the e2e server runs it: the dev outbox runs it before answering. */
async function runDueWork(who: Person) {
  const response = await who.page.request.get(`/api/dev/outbox?to=${encodeURIComponent(directoryEmail(who.firstName))}`);
  expect(response.status()).toBe(200);
}

/** The place's date `days` ahead, as the date input takes it. */
const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test("two couples plan a meetup: propose, answer, move the time, confirm, a calendar file, a friend's link, the reminder and 'How was it?'", async ({
  browser,
}, testInfo) => {
  // Five people, each screen checked at two sizes: 3-5 min alone, 7 beside another walk on two cores.
  test.setTimeout(600_000);
  await asSeeded(["Nuria", "Elena"]);
  const nuria = await person(browser, ["Nuria", "Marc"], 0, PHONE, "light");
  const marc = await person(browser, ["Nuria", "Marc"], 1, LAPTOP, "dark");
  const elena = await person(browser, ["Elena", "Sergio"], 0, LAPTOP, "light");
  const sergio = await person(browser, ["Elena", "Sergio"], 1, PHONE, "dark");
  const everyone = [nuria, marc, elena, sergio];

  // Nuria says hello; Elena accepts and lands in the conversation; all four open it.
  const conversation = await startConversation(nuria, elena, "Dinner in Lisbon some time?");
  for (const who of everyone) await who.page.goto(conversation);

  // Nuria proposes from the composer's menu: what, when (the place's clock), where (the place search), a venue.
  await nuria.page.getByRole("button", { name: "Plan a meetup" }).click();
  const form = nuria.page.getByRole("dialog", { name: "Plan a meetup" });
  await form.getByLabel("What").fill("Dinner and a walk");
  await form.getByLabel("Date").fill(dayAhead(15));
  await form.getByLabel("Starts").fill("19:30");
  await form.getByRole("combobox", { name: "Where" }).fill("Lisbon");
  await form.getByRole("option").filter({ hasText: "Lisbon" }).first().click();
  await form.getByLabel("Venue (optional)").fill("Time Out Market");
  await check(nuria, "plan-form", testInfo);
  const proposed = nuria.page.waitForResponse((response) => response.url().endsWith("/plans") && response.request().method() === "POST");
  await form.getByRole("button", { name: "Propose" }).click();
  expect((await proposed).status()).toBe(201);
  await expect(form).toBeHidden();

  // The card comes live to all four, each answer 'not yet', the time Lisbon's.
  for (const who of everyone) {
    await expect(card(who)).toContainText("19:30", LIVE);
    await expect(card(who)).toContainText("Time Out Market, Lisbon");
    await expect(card(who)).toContainText(`${elena.firstName}: not yet`);
  }
  await check(sergio, "plan-card", testInfo);

  // Three answer; everyone sees each answer by first name.
  await card(marc).getByRole("button", { name: "Going" }).click();
  await card(elena).getByRole("button", { name: "Maybe" }).click();
  await card(sergio).getByRole("button", { name: "Going" }).click();
  for (const who of everyone)
    for (const answer of ["Nuria: not yet", "Marc: going", "Elena: maybe", "Sergio: going"])
      await expect(card(who)).toContainText(answer, LIVE);

  // Elena moves the time: everyone is asked again.
  await card(elena).getByRole("button", { name: "Change" }).click();
  const change = elena.page.getByRole("dialog", { name: "Change the plan" });
  await change.getByLabel("Starts").fill("20:00");
  await change.getByRole("button", { name: "Change and ask again" }).click();
  await expect(change).toBeHidden();
  for (const who of everyone) {
    await expect(card(who)).toContainText("20:00", LIVE);
    await expect(card(who)).toContainText("Marc: not yet", LIVE);
  }

  // All four go: 'Confirmed' for everyone.
  for (const who of everyone) await card(who).getByRole("button", { name: "Going" }).click();
  for (const who of everyone) await expect(card(who).getByText("Confirmed", { exact: true })).toBeVisible(LIVE);
  for (const who of everyone) await check(who, "confirmed", testInfo);

  // Marc adds it to his calendar: the file names the place's zone and the change.
  await card(marc).getByText("Add to calendar").click();
  const href = await card(marc).getByRole("link", { name: "Calendar file (.ics)" }).getAttribute("href");
  const fetched = await marc.page.request.get(href!);
  expect(fetched.status(), await fetched.text()).toBe(200);
  expect(fetched.headers()["content-disposition"]).toContain("attachment");
  const downloading = marc.page.waitForEvent("download");
  await card(marc).getByRole("link", { name: "Calendar file (.ics)" }).click();
  const file = await (await downloading).path();
  const ics = await readFile(file!, "utf8");
  expect(ics).toContain("BEGIN:VCALENDAR");
  expect(ics).toMatch(/DTSTART;TZID=Europe\/Lisbon:\d{8}T200000/);
  expect(ics).toContain("SEQUENCE:1");
  expect(ics).toContain("STATUS:CONFIRMED");

  // 'Upcoming' on /messages and on the dashboard: the plan, its place and who is going.
  await sergio.page.goto("/messages");
  await expect(sergio.page.getByRole("region", { name: "Upcoming" })).toContainText("Time Out Market, Lisbon · 4 of 4 going");
  await check(sergio, "upcoming-messages", testInfo);
  for (const who of [marc, nuria]) {
    await who.page.goto("/dashboard");
    await expect(who.page.getByRole("region", { name: "Upcoming" })).toContainText("Time Out Market, Lisbon · 4 of 4 going");
    await check(who, "upcoming-dashboard", testInfo);
    await who.page.goto(conversation);
  }

  // Nuria shares it with a friend, who opens it without an account, in a fifth context.
  await card(nuria).getByText("Share with a friend").click();
  await card(nuria).getByRole("button", { name: "Make a link" }).click();
  const link = await card(nuria).getByLabel("Link to send").inputValue();
  expect(link).toMatch(/\/plan\/[\w-]{43}$/);
  const friend = await browser.newContext({ viewport: PHONE });
  const friendPage = await friend.newPage();
  await friendPage.goto(link);
  await expect(friendPage.getByRole("heading", { name: "Dinner and a walk" })).toBeVisible();
  await expect(friendPage.getByText("Meeting Elena and Sergio")).toBeVisible();
  await expect(friendPage.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await axe(friendPage);
  await friendPage.screenshot({ path: testInfo.outputPath("shared-plan.png") });
  const laptopFriend = await (await browser.newContext({ viewport: LAPTOP, colorScheme: "dark" })).newPage();
  await laptopFriend.addInitScript(() => window.localStorage.setItem("theme", "dark"));
  await laptopFriend.goto(link);
  await expect(laptopFriend.getByRole("heading", { name: "Dinner and a walk" })).toBeVisible();
  await noHorizontalScroll(laptopFriend);
  await axe(laptopFriend);
  await laptopFriend.screenshot({ path: testInfo.outputPath("shared-plan-laptop-dark.png") });
  // After a reload the card still says the couple's link works (its address is shown only when
  // made), to either partner, and not to the other couple, whose own link it is not.
  await marc.page.reload();
  await card(marc).getByText("Share with a friend").click();
  await expect(card(marc).getByText("Your couple's link is working.")).toBeVisible();
  await elena.page.reload();
  await card(elena).getByText("Share with a friend").click();
  await expect(card(elena).getByRole("button", { name: "Make a link" })).toBeVisible();
  // Revoked: the same link no longer shows the plan.
  await card(nuria).getByRole("button", { name: "Stop sharing" }).click();
  await expect(card(nuria).getByRole("button", { name: "Make a link" })).toBeVisible();
  await friendPage.goto(link);
  await expect(friendPage.getByRole("heading", { name: "This link does not work" })).toBeVisible();

  // The place search is down while Elena moves the plan to within two hours: she types the place by
  // hand (with the search's retry offered) and picks its zone; everyone is asked again.
  await sergio.page.goto(conversation);
  await elena.page.route(SEARCH, (route) => route.abort("internetdisconnected"));
  await card(elena).getByRole("button", { name: "Change" }).click();
  const moving = elena.page.getByRole("dialog", { name: "Change the plan" });
  const soon = lisbonIn(90);
  await moving.getByLabel("Date").fill(soon.date);
  await moving.getByLabel("Starts").fill(soon.time);
  await moving.getByRole("combobox", { name: "Where" }).fill("Cafe Luso");
  await expect(moving.getByText("Location search is currently unavailable.")).toBeVisible();
  await expect(moving.getByRole("button", { name: "Try searching again" })).toBeVisible();
  await moving.getByRole("button", { name: 'Continue with "Cafe Luso"' }).click();
  // Once the typed place is chosen, the search's failure has said its piece: only the typed line stays.
  await expect(moving.getByText("Typed by hand: Cafe Luso.", { exact: false })).toBeVisible();
  await expect(moving.getByText("Location search is currently unavailable.")).toBeHidden();
  await expect(moving.getByRole("button", { name: "Try searching again" })).toBeHidden();
  await moving.getByLabel("Time zone of the place").selectOption("Europe/Lisbon");
  await moving.getByLabel("Venue (optional)").fill("");
  await check(elena, "plan-form-typed-place", testInfo);
  await moving.getByRole("button", { name: "Change and ask again" }).click();
  await expect(moving).toBeHidden();
  await elena.page.unroute(SEARCH);
  for (const who of everyone) {
    await expect(card(who)).toContainText("Cafe Luso", LIVE);
    await expect(card(who)).toContainText(soon.time, LIVE);
  }
  await card(marc).getByRole("button", { name: "Change" }).click();
  await check(marc, "plan-form-change", testInfo);
  await marc.page.getByRole("dialog", { name: "Change the plan" }).getByRole("button", { name: "Back" }).click();

  // Sergio can't come; the other three answer at once (the server's own minute timer reminds whoever
  // has said yes when it runs, so their answers land together): the two-hour reminder reaches the three only.
  await card(sergio).getByRole("button", { name: "Can't" }).click();
  const planId = href!.split("/")[3]!;
  const answers: [Person, string][] = [
    [nuria, "going"],
    [marc, "maybe"],
    [elena, "going"],
  ];
  const tokens = await Promise.all(answers.map(([who]) => csrfToken(who.page)));
  const answered = await Promise.all(
    answers.map(([who, answer], i) =>
      who.page.request.put(`/api/plans/${planId}/answer`, { data: { answer }, headers: { "x-csrf-token": tokens[i]! } }),
    ),
  );
  expect(answered.map((response) => response.status())).toEqual([200, 200, 200]);
  for (const who of everyone)
    for (const answer of ["Nuria: going", "Marc: maybe", "Elena: going", "Sergio: can't"])
      await expect(card(who)).toContainText(answer, LIVE);
  await runDueWork(nuria);
  for (const who of [nuria, marc, elena]) {
    await who.page.goto("/notifications");
    await expect(who.page.getByText("Coming up: Dinner and a walk")).toBeVisible(LIVE);
    await expect(who.page.getByText(/Soon: .*Cafe Luso/)).toBeVisible();
    await check(who, "reminder", testInfo);
  }
  await sergio.page.goto("/notifications");
  await expect(sergio.page.getByText("Plan changed: Dinner and a walk").first()).toBeVisible();
  await expect(sergio.page.getByText("Coming up: Dinner and a walk")).toHaveCount(0);

  // The meetup is over (what only time can do, done to the run's database); the due work asks each of the four.
  const [moved] = await runDatabase(
    (db) => db`update plans set starts_at = now() - interval '4 hours', ends_at = null, ends_local = null,
      starts_local = to_char((now() - interval '4 hours') at time zone time_zone, 'YYYY-MM-DD"T"HH24:MI')
      where title = 'Dinner and a walk' and conversation_id = ${conversation.split("/").at(-1)!} returning id`,
  );
  expect(moved!.id).toBe(planId);
  await runDueWork(nuria);
  await nuria.page.goto("/notifications");
  await expect(nuria.page.getByText("How was it? Dinner and a walk")).toBeVisible();
  const feedback: [Person, string][] = [
    [nuria, "Great, let's meet again"],
    [marc, "Great, let's meet again"],
    [elena, "It was fine"],
    [sergio, "Something went wrong"],
  ];
  for (const [who, answer] of feedback) {
    await who.page.goto(conversation);
    const asked = card(who).getByRole("group", { name: /How was it\?/ });
    await expect(asked).toBeVisible();
    await check(who, "how-was-it", testInfo);
    await asked.getByRole("button", { name: answer }).click();
    if (answer !== "Something went wrong") await expect(card(who).getByText(/only you see your answer/)).toBeVisible();
  }
  // 'Something went wrong' opens the report with the plan attached.
  const reporting = sergio.page.getByRole("dialog", { name: "Report" });
  await expect(reporting).toBeVisible();
  await check(sergio, "plan-report", testInfo);
  await reporting.getByLabel("Harassment").check();
  await reporting.getByLabel("Note (optional)").fill("They left us waiting and were rude");
  await reporting.getByRole("button", { name: "Send Report" }).click();
  await expect(reporting.getByRole("status")).toBeVisible();
  // Closed, focus comes back to the plan's 'after' part (the answer that opened the report is gone), not to the page's start.
  await reporting.getByRole("button", { name: "Close", exact: true }).last().click();
  await expect(reporting).toHaveCount(0);
  await expect(card(sergio).getByText(/only you see your answer/)).toBeVisible();
  await expect(sergio.page.locator(":focus")).toContainText("only you see your answer");
  const filed = await runDatabase((db) => db`select target_type, note from reports where target_id = ${planId}`);
  expect(filed.map((row) => [row.target_type, row.note])).toEqual([["plan", "They left us waiting and were rude"]]);

  // A moderator (of a couple no other spec uses) sees the plan's what, when and where, and the couple reported.
  const moderator = await person(browser, ["Mila", "Jonas"], 0, LAPTOP, "light");
  await runDatabase((db) => db`update users set role = 'moderator' where email = ${directoryEmail("Mila")}`);
  for (const theme of THEMES) {
    if (theme === "dark") {
      await moderator.page.setViewportSize(PHONE);
      await moderator.page.emulateMedia({ colorScheme: "dark" });
      // After person()'s own script, which sets the light theme on every load.
      await moderator.page.context().addInitScript(() => window.localStorage.setItem("theme", "dark"));
      moderator.label = "Mila-390-dark";
    }
    await moderator.page.goto("/moderation");
    const reported = await queueRow(moderator.page, "Dinner and a walk");
    await expect(reported).toContainText(`a plan by ${nuria.coupleName}`);
    await expect(reported).toContainText(/When: \w{3} \d{1,2} \w{3}, \d{2}:\d{2} in Lisbon/);
    await expect(reported).toContainText("Where: Cafe Luso");
    await expect(reported).toContainText("Note: They left us waiting and were rude");
    await expect(reported.getByRole("link", { name: "Act on the couple" })).toBeVisible();
    await check(moderator, "moderation-plan-report", testInfo);
  }

  // A plan still to come, reported by the other couple: the moderator's 'Remove' erases its words and
  // cancels it, and all four see it cancelled, live.
  const conversationId = conversation.split("/").at(-1)!;
  const picnic = await sergio.page.request.post(`/api/conversations/${conversationId}/plans`, {
    data: { title: "Picnic by the river", startsAt: `${dayAhead(5)}T12:00`, placeId: "geonames:2267057" },
    headers: { "x-csrf-token": await csrfToken(sergio.page) },
  });
  expect(picnic.status()).toBe(201);
  const picnicId = ((await picnic.json()) as { data: { id: string } }).data.id;
  const filedPicnic = await nuria.page.request.post("/api/reports", {
    data: { targetType: "plan", targetId: picnicId, reason: "harassment" },
    headers: { "x-csrf-token": await csrfToken(nuria.page) },
  });
  expect(filedPicnic.status()).toBe(201);
  for (const who of everyone) await who.page.goto(conversation);
  const picnicCard = (who: Person) => who.page.getByRole("article", { name: "Picnic by the river" });
  for (const who of everyone) await expect(picnicCard(who)).toBeVisible(LIVE);
  await moderator.page.goto("/moderation");
  const removing = await queueRow(moderator.page, "Picnic by the river");
  await removing.getByRole("button", { name: "Remove" }).click();
  await expect(removing).toBeHidden(LIVE);
  // Its words go with it: the card and the bell keep no trace of what was reported.
  const removedCard = (who: Person) => who.page.getByRole("article", { name: "Removed by a moderator" });
  for (const who of everyone) {
    await expect(removedCard(who)).toContainText("Cancelled", LIVE);
    await expect(picnicCard(who)).toHaveCount(0);
  }
  await nuria.page.goto("/notifications");
  await expect(nuria.page.getByText("Plan cancelled: Removed by a moderator")).toBeVisible();
  await expect(nuria.page.getByText("Picnic by the river")).toHaveCount(0);

  // Both couples said 'Great' about another meetup: its card says when they met, and 'Plan again'
  // opens the plan form with its what, where and venue, the time left to choose.
  const tapas = await elena.page.request.post(`/api/conversations/${conversationId}/plans`, {
    data: { title: "Tapas night", startsAt: `${dayAhead(6)}T20:00`, placeId: "geonames:2267057", venue: "Time Out Market" },
    headers: { "x-csrf-token": await csrfToken(elena.page) },
  });
  expect(tapas.status()).toBe(201);
  const tapasId = ((await tapas.json()) as { data: { id: string } }).data.id;
  await runDatabase(
    (db) => db`update plans set starts_at = now() - interval '4 hours', ends_at = null, ends_local = null,
      starts_local = to_char((now() - interval '4 hours') at time zone time_zone, 'YYYY-MM-DD"T"HH24:MI') where id = ${tapasId}`,
  );
  for (const who of [nuria, elena]) {
    const said = await who.page.request.put(`/api/plans/${tapasId}/feedback`, {
      data: { answer: "great" },
      headers: { "x-csrf-token": await csrfToken(who.page) },
    });
    expect(said.status()).toBe(200);
  }
  const tapasCards = (who: Person) => who.page.getByRole("article", { name: "Tapas night" });
  await nuria.page.goto(conversation);
  await expect(tapasCards(nuria)).toContainText(/You met on \d{1,2} \w{3}/);
  await tapasCards(nuria).getByRole("button", { name: "Plan again" }).click();
  const again = nuria.page.getByRole("dialog", { name: "Plan a meetup" });
  await expect(again.getByLabel("What")).toHaveValue("Tapas night");
  await expect(again.getByRole("combobox", { name: "Where" })).toHaveValue(/Lisbon/);
  await expect(again.getByLabel("Venue (optional)")).toHaveValue("Time Out Market");
  await expect(again.getByLabel("Date")).toHaveValue("");
  await check(nuria, "plan-again", testInfo);
  await again.getByLabel("Date").fill(dayAhead(20));
  await again.getByLabel("Starts").fill("20:00");
  await again.getByRole("button", { name: "Propose" }).click();
  await expect(again).toBeHidden(LIVE);
  // The new plan reaches the other couple live, beside the one they met at.
  await expect(tapasCards(elena)).toHaveCount(2, LIVE);
  await expect(tapasCards(elena).filter({ hasText: "Time Out Market" })).toHaveCount(2);
});
