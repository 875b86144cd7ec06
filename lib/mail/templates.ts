import { CONTROL_CHARACTER } from "@/lib/fields";
import { env } from "@/lib/env";

export type EmailMessage = { to: string; subject: string; text: string; html: string; headers?: Record<string, string> };

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Absolute link on this deployment, from APP_URL. */
export function appLink(pathname: string, params: Record<string, string>): string {
  const url = new URL(pathname, env().APP_URL);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/** The HTML attribute of the button of an e-mail that opens `path` (layout): a waiting e-mail is found by it (outbox.ts mailOpening). */
export const actionAttribute = (path: string) => `href="${escapeHtml(appLink(path, {}))}"`;

/** A subject is one header line: line breaks and other control characters (from a typed name) become a space. */
const CONTROL_RUN = new RegExp(`${CONTROL_CHARACTER.source}+`, "gu");
const oneLine = (subject: string) => subject.replace(CONTROL_RUN, " ").trim();

function layout(to: string, subject: string, greeting: string, lines: string[], action: { label: string; url: string }): EmailMessage {
  const text = [
    greeting,
    "",
    ...lines,
    "",
    `${action.label}: ${action.url}`,
    "",
    "If you did not ask for this, you can ignore this e-mail.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937">
<p>${escapeHtml(greeting)}</p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#b4235a;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#4b5563">Or paste this link into your browser: ${escapeHtml(action.url)}</p>
<p style="font-size:13px;color:#4b5563">If you did not ask for this, you can ignore this e-mail.</p></body></html>`;
  return { to, subject: oneLine(subject), text, html };
}

export const verificationEmail = (to: string, firstName: string, token: string) =>
  layout(
    to,
    "Verify your email address",
    `Hi ${firstName},`,
    ["Welcome! Please confirm your email address to finish creating your account. The link is valid for 24 hours."],
    { label: "Verify my email", url: appLink("/verify-email", { token, email: to }) },
  );

export const passwordResetEmail = (to: string, firstName: string, token: string) =>
  layout(
    to,
    "Reset your password",
    `Hi ${firstName},`,
    ["We received a request to reset your password. The link is valid for 1 hour and can be used once."],
    { label: "Reset my password", url: appLink("/reset-password", { token }) },
  );

export const invitationEmail = (
  to: string,
  invitation: { partnerFirstName: string; inviterFirstName: string; coupleName: string; validDays: number },
  token: string,
) =>
  layout(
    to,
    `${invitation.inviterFirstName} invited you to join ${invitation.coupleName}`,
    `Hi ${invitation.partnerFirstName},`,
    [
      `${invitation.inviterFirstName} has invited you to join your couple profile, ${invitation.coupleName}, on Two of Us: a community for couples who live life their way.`,
      `The link is yours alone, works once and is valid for ${invitation.validDays} days.`,
    ],
    { label: "Accept the invitation", url: appLink("/register", { invite: token }) },
  );

export const emailChangeEmail = (to: string, firstName: string, token: string) =>
  layout(
    to,
    "Confirm your new email address",
    `Hi ${firstName},`,
    [
      "You asked to use this address for your Two of Us account. Your sign-in address changes only when you open this link, while signed in. It is valid for 24 hours and can be used once.",
    ],
    { label: "Confirm my new email", url: appLink("/settings/confirm-email", { token }) },
  );

/** The old address is told, so a stolen session cannot quietly take the account away. */
export const emailChangeNotice = (to: string, firstName: string, newEmail: string) =>
  layout(
    to,
    "Your email address is being changed",
    `Hi ${firstName},`,
    [
      `Someone signed in to your Two of Us account asked to change its email address to ${newEmail}. Nothing changes until that address confirms it.`,
      "If this was not you, change your password now: that signs out every other session.",
    ],
    { label: "Review your security settings", url: appLink("/settings/security", {}) },
  );

/** After a password change: the person learns of it even if it was not them. */
export const passwordChangedNotice = (to: string, firstName: string) =>
  layout(
    to,
    "Your password was changed",
    `Hi ${firstName},`,
    [
      "The password of your Two of Us account was just changed, and every other session was signed out.",
      "If this was not you, reset your password now with the link below.",
    ],
    { label: "Reset my password", url: appLink("/forgot-password", {}) },
  );

/**
 * A notification sent by e-mail: its title and text (its type's subject when it has no title,
 * lib/notifications/types), a link to it, and the one-click unsubscribe link for its type (in the
 * body and as RFC 8058 List-Unsubscribe headers); none for a service e-mail (null: its type's
 * `serviceEmail`, which no choice turns off).
 */
export function notificationEmail(
  to: string,
  notification: { subject: string; title: string; message: string; href: string },
  unsubscribeToken: string | null,
): EmailMessage {
  const base = layout(
    to,
    notification.title || notification.subject,
    "Hi,",
    // Each line of the text its own paragraph (the unread-message e-mail quotes one message a line).
    [notification.title, ...notification.message.split("\n")].filter(Boolean),
    {
      label: "Open Two of Us",
      url: appLink(notification.href, {}),
    },
  );
  if (unsubscribeToken === null) return base;
  const unsubscribeUrl = appLink("/unsubscribe", { token: unsubscribeToken });
  const oneClickUrl = appLink("/api/notifications/unsubscribe", { token: unsubscribeToken });
  const footer = "You get this e-mail because of your notification settings.";
  return {
    ...base,
    text: `${base.text}\n\n${footer}\nUnsubscribe from these e-mails: ${unsubscribeUrl}`,
    html: base.html.replace(
      "</body></html>",
      `<p style="font-size:13px;color:#4b5563">${escapeHtml(footer)} <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe from these e-mails</a></p></body></html>`,
    ),
    headers: { "List-Unsubscribe": `<${oneClickUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
