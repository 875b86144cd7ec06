import type { Page } from "@playwright/test";

/** Shared steps of the rehearsal's journeys. */

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Let's Go!" }).click();
}

/** The CSRF token an API write from the page's context carries. */
export const csrf = async (page: Page) => ((await (await page.request.get("/api/csrf-token")).json()) as { csrfToken: string }).csrfToken;
