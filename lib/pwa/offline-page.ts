/**
 * The page a navigation shows when the network fails (the service worker answers it itself, so it
 * needs nothing from the server): what happened, what still works, and a way to try again. No
 * script (the worker's own policy allows none) and no personal data: it is the same for everyone.
 */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

/** The offline page for a navigation to `retryHref` (a same-origin path: the worker passes the failed request's). */
export function offlinePageHtml(retryHref: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>You are offline · Two of Us</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 2rem 1rem; background: #fdf8f6; color: #2a1a20; }
  main { max-width: 32rem; margin: 0 auto; }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  a.retry { display: inline-flex; align-items: center; min-height: 44px; padding: 0 1.25rem; border-radius: 999px;
    background: #b4235a; color: #fff; text-decoration: none; font-weight: 600; }
  a.retry:focus-visible { outline: 3px solid #2a1a20; outline-offset: 2px; }
  @media (prefers-color-scheme: dark) { body { background: #1b1316; color: #f5e9ee; } a.retry:focus-visible { outline-color: #f5e9ee; } }
</style>
</head>
<body>
<main id="main">
  <h1>You are offline</h1>
  <p>This page needs a connection, and this device has none right now.</p>
  <p>What still works: the pages already open in other tabs stay as they are, and anything you were typing there is kept
  until you send it. Nothing you sent is lost: messages and posts are kept on the server.</p>
  <p><a class="retry" href="${escapeHtml(retryHref)}">Try again</a></p>
</main>
</body>
</html>`;
}
