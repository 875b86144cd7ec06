/**
 * A person-readable name for a session's client, from its User-Agent ("Chrome on Android",
 * "Safari on iPhone", "API client"). Pure and browser-safe. Only the common browsers and
 * systems are named; anything else is "Unknown browser" / "unknown device", never the raw text.
 */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/(?:\b|Headless)(?:Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.].*Safari\//, "Safari"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** Real User-Agents are a few hundred characters; only the head is read, so the patterns' work stays bounded. */
const USER_AGENT_READ = 512;

const first = (table: readonly [RegExp, string][], userAgent: string) => table.find(([pattern]) => pattern.test(userAgent))?.[1];

export function describeDevice(userAgent: string | null | undefined, kind: "browser" | "api" = "browser"): string {
  const ua = userAgent?.slice(0, USER_AGENT_READ).trim() ?? "";
  const browser = ua ? first(BROWSERS, ua) : undefined;
  const system = ua ? first(SYSTEMS, ua) : undefined;
  if (!browser && !system) return kind === "api" ? "App or API client" : "Unknown device";
  return `${browser ?? "Unknown browser"} on ${system ?? "unknown device"}`;
}
