import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { DEMO_PASSWORD, directoryEmail } from "../../lib/demo/data";
import { axe, LAPTOP, noHorizontalScroll, PHONE, wholeTarget } from "./checks";
import { asSeeded, coupleIdOf, runDatabase } from "./database";
import { csrfToken, openProfile, queueRow, signIn, startConversation } from "./support";

/**
 * A moderator handles a report of a message end to end: the queue, the couple's page, a
 * suspension, what both couples see (four browser contexts: the moderator at laptop size, the
 * reporting partner and the suspended couple's partners at phone and laptop size), the suspended
 * partner's appeal signed out, and the lift. Axe on each moderation page. Seeded directory couples
 * no other spec uses.
 */
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

type Person = { page: Page; email: string; coupleName: string };

async function person(browser: Browser, [firstName, partner]: [string, string], viewport: typeof PHONE): Promise<Person> {
  const page = await (await browser.newContext({ viewport })).newPage();
  const email = directoryEmail(firstName);
  await signIn(page, { email, password: DEMO_PASSWORD });
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  return { page, email, coupleName: `${firstName} & ${partner}` };
}

const grantModerator = (email: string) => runDatabase((db) => db`update users set role = 'moderator' where email = ${email}`);

test("a moderator suspends a couple from a reported message, the couples see it, the couple appeals and the moderator lifts it", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  await asSeeded(["Paula", "Lucia"]);
  const moderator = await person(browser, ["Irene", "Gil"], LAPTOP);
  await grantModerator(moderator.email);
  // A second moderator decides the appeal: with two or more on the team, the one who acted may not
  // (and other specs add moderators to the run as they go).
  const second = await person(browser, ["Chloe", "Hugo"], LAPTOP);
  await grantModerator(second.email);
  const lucia = await person(browser, ["Lucia", "Pablo"], PHONE);
  const paula = await person(browser, ["Paula", "Javier"], PHONE);
  const javier = await person(browser, ["Javier", "Paula"], LAPTOP);
  javier.coupleName = paula.coupleName;

  // Paula says hello, Lucia accepts, Paula writes something awful and Lucia reports it.
  const conversation = await startConversation(paula, lucia, "Hello from Paula");
  const conversationId = conversation.split("/").at(-1)!;
  const sent = await paula.page.request.post(`/api/conversations/${conversationId}/messages`, {
    data: { body: "Something awful" },
    headers: { "x-csrf-token": await csrfToken(paula.page) },
  });
  expect(sent.status()).toBe(201);
  const messageId = ((await sent.json()) as { data: { id: string } }).data.id;
  const reported = await lucia.page.request.post("/api/reports", {
    data: { targetType: "message", targetId: messageId, reason: "harassment", note: "Out of nowhere" },
    headers: { "x-csrf-token": await csrfToken(lucia.page) },
  });
  expect(reported.status()).toBe(201);

  // The moderator: the queue (from the bar's link, a moderator's own), then the couple's page from
  // the report, then a suspension.
  await moderator.page.goto("/dashboard");
  await moderator.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Moderation" }).click();
  await expect(moderator.page.getByRole("heading", { name: "Moderation", level: 1 })).toBeVisible();
  // Other specs report things too: the report of this message, not the queue's first.
  const report = await queueRow(moderator.page, "Something awful");
  await expect(report).toBeVisible();
  await axe(moderator.page);
  await wholeTarget(report.getByRole("link", { name: "Act on the couple" }));
  await report.getByRole("link", { name: "Act on the couple" }).click();
  await expect(moderator.page.getByRole("heading", { name: paula.coupleName, level: 1 })).toBeVisible();
  await expect(moderator.page.getByText("Acting from a report")).toBeVisible();
  await expect(moderator.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Moderation" })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await axe(moderator.page);
  await moderator.page.getByLabel("Action", { exact: true }).selectOption("suspend");
  await moderator.page.getByLabel("Guideline broken").selectOption("harassment");
  await moderator.page.getByLabel("Note for the record").fill("Abusive first message");
  // The suspended couple's pages are put aside first: an open page's own next call would sign it out
  // (section 7) at a moment of its choosing, racing the step below.
  for (const partner of [paula, javier]) await partner.page.goto("about:blank");
  await moderator.page.getByRole("button", { name: "Suspend this couple" }).click();
  await expect(moderator.page.getByText("Done. The couple is told, and the log has it.")).toBeVisible();

  // The suspended couple: both partners signed out at their next step; sign-in refused with why.
  for (const partner of [paula, javier]) {
    await partner.page.goto("/messages");
    await expect(partner.page).toHaveURL(/\/login/);
    await signIn(partner.page, { email: partner.email, password: DEMO_PASSWORD });
    await expect(partner.page.getByText(/Your couple's account is suspended by our moderators/)).toBeVisible();
    await noHorizontalScroll(partner.page);
  }

  // The other couple: the conversation has ended, and the couple is gone from profiles.
  await lucia.page.goto(conversation);
  await expect(lucia.page.getByRole("status").filter({ hasText: "This conversation has ended." })).toBeVisible();
  // Members do not see the moderation pages, nor a link to them.
  await lucia.page.getByRole("button", { name: "Menu" }).click();
  await expect(lucia.page.locator("#nav-menu-panel").getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(lucia.page.getByRole("link", { name: "Moderation" })).toHaveCount(0);
  expect((await lucia.page.goto("/moderation"))?.status()).toBe(404);

  // Paula appeals, signed out, from the safety page.
  await paula.page.goto("/safety");
  await paula.page.waitForLoadState("networkidle");
  await paula.page.getByLabel("E-mail address").fill(paula.email);
  await paula.page.getByLabel("Password").fill(DEMO_PASSWORD);
  await paula.page.getByLabel("Your appeal").fill("That was my brother on my phone. It will not happen again.");
  await paula.page.getByRole("button", { name: "Send appeal" }).click();
  await expect(paula.page.getByText("Your appeal is with our moderators.")).toBeVisible();
  await axe(paula.page);

  // The second moderator grants it (the one who acted may not); the log has it all.
  await second.page.goto("/moderation");
  await expect(second.page.getByText("That was my brother on my phone.")).toBeVisible();
  await second.page.getByRole("button", { name: "Grant (lift)" }).click();
  await expect(second.page.getByText("That was my brother on my phone.")).toBeHidden();
  await moderator.page.goto("/moderation/log");
  await expect(moderator.page.getByRole("heading", { name: "Moderation log" })).toBeVisible();
  // The newest entry of the kind (a retry finds its failed try's entries under its own).
  const entry = (action: string) =>
    moderator.page
      .getByRole("main")
      .getByRole("listitem")
      .filter({ has: moderator.page.getByText(action, { exact: true }) })
      .first();
  await expect(entry("Suspended")).toContainText(paula.coupleName);
  await expect(entry("Suspended")).toContainText("Note: Abusive first message");
  await expect(entry("Appeal decided")).toContainText("Appeal granted");
  await axe(moderator.page);

  // Lifted: Paula signs in again and finds the notices.
  await signIn(paula.page, { email: paula.email, password: DEMO_PASSWORD });
  await paula.page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await paula.page.goto("/notifications");
  await expect(paula.page.getByRole("link", { name: /Your couple is no longer suspended/ })).toBeVisible();
  await expect(
    paula.page.getByRole("link", { name: /Your couple is suspended Our moderators suspended your couple .*'Harassment'/ }),
  ).toBeVisible();
});

test("the queue shows a couple reported by four couples as one row with its counts; Load more reaches the rest; Dismiss closes them all", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const moderator = await person(browser, ["Irene", "Gil"], PHONE);
  await grantModerator(moderator.email);
  const ownCouple = await coupleIdOf(moderator.email);
  const tag = `queue-walk-${Date.now()}`;
  // Seeded couples: the first reported by the next four, each of the 25 after it by the second
  // alone. Filed a day ahead, after every other walk's reports, so those stay where their walks find
  // them (the queue is oldest first), and a page (20 rows) is full before the last of these.
  const { firstReporter, grouped } = await runDatabase(async (db) => {
    const couples = await db`
      select c.id, c.partner1_id as user_id, u.first_name, c.couple_name from couples c join users u on u.id = c.partner1_id
      where c.id <> ${ownCouple} and c.status = 'active' order by c.id limit 30`;
    const at = (i: number) => new Date(Date.now() + 24 * 3600_000 + i * 1000);
    const reportOf = (by: (typeof couples)[number], target: string, reason: string, i: number, note: string) => ({
      reporter_user_id: by.user_id,
      reporter_couple_id: by.id,
      target_type: "couple",
      target_id: target,
      reason,
      note,
      created_at: at(i),
    });
    const rows = [
      ...[1, 2, 3, 4].map((i) => reportOf(couples[i]!, couples[0]!.id, i === 4 ? "other" : "spam", i, `${tag} grouped ${i}`)),
      ...couples.slice(5).map((target, i) => reportOf(couples[1]!, target.id, "harassment", 10 + i, `${tag} single ${i + 1}.`)),
    ];
    await db`insert into reports ${db(rows)}`;
    return { firstReporter: couples[1]!.first_name as string, grouped: couples[0]!.id as string };
  });
  try {
    await moderator.page.goto("/moderation");
    await expect(moderator.page.getByRole("heading", { name: "Moderation", level: 1 })).toBeVisible();
    // The last of them is on no first page: 'Load more' reaches it, each row once.
    await expect(moderator.page.getByRole("listitem").filter({ hasText: `${tag} single 25.` })).toHaveCount(0);
    const last = await queueRow(moderator.page, `${tag} single 25.`);
    await expect(last).toBeVisible();
    await expect(last).toContainText(`Harassment · a couple by`);
    await expect(last).toContainText(`reported by ${firstReporter}`);
    for (const i of [1, 13, 24])
      await expect(moderator.page.getByRole("listitem").filter({ hasText: `${tag} single ${i}.` })).toHaveCount(1);

    // Four couples' reports of one couple: one row, counted, with their notes.
    const row = await queueRow(moderator.page, `${tag} grouped 1`);
    // The queue's rows (the cards with a decision), not the notes listed in one.
    const rows = moderator.page.getByRole("listitem").filter({ has: moderator.page.getByRole("button", { name: "Dismiss" }) });
    await expect(rows.filter({ hasText: `${tag} grouped` })).toHaveCount(1);
    await expect(row).toContainText("Spam (3), Other (1)");
    await expect(row).toContainText(`4 reports by 4 couples, first by ${firstReporter}`);
    await expect(row.getByRole("list", { name: "Notes from the reporters" }).getByRole("listitem")).toHaveCount(4);
    await noHorizontalScroll(moderator.page);
    await axe(moderator.page);
    await wholeTarget(row.getByRole("button", { name: "Dismiss" }));
    await row.getByRole("button", { name: "Dismiss" }).click();
    await expect(rows.filter({ hasText: `${tag} grouped` })).toHaveCount(0);
    const statuses = await runDatabase(
      (db) => db`select status from reports where target_type = 'couple' and target_id = ${grouped} and note like ${`${tag}%`}`,
    );
    expect(statuses.map((report) => report.status)).toEqual(["dismissed", "dismissed", "dismissed", "dismissed"]);
  } finally {
    // Left open, they would fill the queue for a retry and for other walks.
    await runDatabase((db) => db`update reports set status = 'dismissed' where note like ${`${tag}%`} and status = 'open'`);
  }
});

test("a warned couple sees the warning once, before anything else; a restricted couple sees why and until when where Say hello was", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  await asSeeded(["Sara", "Julia"]);
  const moderator = await person(browser, ["Julia", "Noah"], LAPTOP);
  await grantModerator(moderator.email);
  const sara = await person(browser, ["Sara", "Elias"], PHONE);
  const elias = await person(browser, ["Elias", "Sara"], LAPTOP);
  const coupleId = await coupleIdOf(sara.email);
  const act = async (kind: string, days?: string) => {
    await moderator.page.goto(`/moderation/couples/${coupleId}`);
    await moderator.page.getByLabel("Action", { exact: true }).selectOption(kind);
    if (days) await moderator.page.getByLabel("For", { exact: true }).selectOption(days);
    await moderator.page.getByLabel("Guideline broken").selectOption("spam");
    await moderator.page.getByRole("button", { name: /this couple$/ }).click();
    await expect(moderator.page.getByText("Done. The couple is told, and the log has it.")).toBeVisible();
  };

  await act("warn");
  await sara.page.goto("/dashboard");
  await expect(sara.page.getByRole("heading", { name: "A warning from our moderators" })).toBeVisible();
  await expect(sara.page.getByText(/community guideline ‘Spam and scams’/)).toBeVisible();
  await axe(sara.page);
  await noHorizontalScroll(sara.page);
  await sara.page.getByRole("button", { name: "I understand" }).click();
  await expect(sara.page.getByRole("heading", { name: "A warning from our moderators" })).toHaveCount(0);
  // Shown once, to the couple: the other partner does not see it again.
  await elias.page.goto("/dashboard");
  await expect(elias.page.getByRole("heading", { name: "A warning from our moderators" })).toHaveCount(0);

  await act("restrict", "7");
  await openProfile(sara, moderator.coupleName);
  await expect(sara.page.getByRole("button", { name: `Say hello to ${moderator.coupleName}` })).toHaveCount(0);
  await expect(sara.page.getByTestId("restricted-instead").first()).toContainText(/Restricted until \d+ \w+ \d{4}/);
  await expect(sara.page.getByTestId("restriction-notice")).toContainText("you can read, but not say hello, send messages, post or reply");
  await axe(sara.page);
  await noHorizontalScroll(sara.page);
  // The forum too: 'Restricted until ... · why' where New Post was.
  await sara.page.goto("/forum");
  await expect(sara.page.getByRole("button", { name: "New Post" })).toHaveCount(0);
  await expect(sara.page.getByRole("main").getByTestId("restricted-instead")).toContainText(
    /Restricted until \d+ \w+ \d{4} at \d\d:\d\d UTC · why/,
  );
  await wholeTarget(sara.page.getByRole("main").getByTestId("restricted-instead").getByRole("link", { name: "why" }));
  await noHorizontalScroll(sara.page);

  // Lifted with a reason: Say hello is back.
  await moderator.page.goto(`/moderation/couples/${coupleId}`);
  const restriction = moderator.page.getByRole("form", { name: "Lift this restrict" });
  await restriction.getByLabel("Reason to lift").fill("Reviewed: a misunderstanding");
  await restriction.getByRole("button", { name: "Lift" }).click();
  await expect(moderator.page.getByText("Lifted: Reviewed: a misunderstanding")).toBeVisible();
  await openProfile(sara, moderator.coupleName);
  await expect(sara.page.getByRole("button", { name: `Say hello to ${moderator.coupleName}` })).toBeVisible();
  await sara.page.goto("/forum");
  await expect(sara.page.getByRole("button", { name: "New Post" })).toBeVisible();
});

test("an admin grants and revokes a moderator from /moderation/team; moderators do not see it", async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await person(browser, ["Noah", "Julia"], PHONE);
  await runDatabase((db) => db`update users set role = 'admin' where email = ${admin.email}`);
  const julia = directoryEmail("Julia");
  await admin.page.goto("/moderation");
  await admin.page.getByRole("navigation", { name: "Moderation" }).getByRole("link", { name: "Team" }).click();
  await expect(admin.page.getByRole("heading", { name: "Moderation team", level: 1 })).toBeVisible();
  await admin.page.getByLabel("E-mail of the account").fill(julia);
  await admin.page.getByLabel("Role", { exact: true }).selectOption("moderator");
  await admin.page.getByRole("button", { name: "Grant" }).click();
  await expect(admin.page.getByText(`${julia} is now a moderator.`)).toBeVisible();
  const row = admin.page.getByRole("list", { name: "The team" }).getByRole("listitem").filter({ hasText: "Julia" });
  await expect(row).toContainText("moderator");
  await axe(admin.page);
  await noHorizontalScroll(admin.page);
  // Julia moderates now, but the team page is not hers.
  const juliaPage = (await person(browser, ["Julia", "Noah"], LAPTOP)).page;
  expect((await juliaPage.goto("/moderation"))?.status()).toBe(200);
  expect((await juliaPage.goto("/moderation/team"))?.status()).toBe(404);
  await row.getByRole("button", { name: "Revoke moderator" }).click();
  await expect(admin.page.getByText(/is a member again/)).toBeVisible();
  expect((await juliaPage.goto("/moderation"))?.status()).toBe(404);
  await admin.page.goto("/moderation/log?action=role_revoked");
  await expect(
    admin.page
      .getByRole("main")
      .getByRole("listitem")
      .filter({ has: admin.page.getByText("Role revoked", { exact: true }) })
      .first(),
  ).toContainText("by Noah");
  await axe(admin.page);
});
