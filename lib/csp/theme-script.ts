import { createHash } from "node:crypto";

/**
 * The first-paint script, inline in the root layout's <head>: the stored theme choice under
 * "theme" (else the system preference) set on <html data-theme> before anything paints, as
 * next-themes' own script does for components/layout/ThemeProvider.tsx's settings; and zod told
 * (through its global config, before any page loads it) never to probe for eval, which the
 * policy forbids: its caught `new Function` would still be reported as a violation. Its text is
 * fixed, so every Content-Security-Policy allows it by its hash: the layout needs no nonce, and
 * pages with nothing per request can be prerendered (lib/csp/static-pages.ts).
 */
export const THEME_INIT_SCRIPT =
  "(function(){var g=globalThis;g.__zod_globalConfig=g.__zod_globalConfig||{};g.__zod_globalConfig.jitless=true})();" +
  '(function(){var d=document.documentElement;try{var t=localStorage.getItem("theme")||"system";' +
  'if(t==="system")t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";' +
  'd.setAttribute("data-theme",t);if(t==="light"||t==="dark")d.style.colorScheme=t}catch(e){}})()';

/** A CSP hash source for an inline script's exact text. */
export const scriptHashSource = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

export const THEME_INIT_SCRIPT_HASH = scriptHashSource(THEME_INIT_SCRIPT);
