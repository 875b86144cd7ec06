import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inlineScriptHashes, inlineScripts, prerenderedFile } from "@/lib/csp/static-pages";
import { THEME_INIT_SCRIPT, THEME_INIT_SCRIPT_HASH, scriptHashSource } from "@/lib/csp/theme-script";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inlineScripts", () => {
  it("keeps the text of inline scripts that run, exactly as written", () => {
    const html = `<html><head><script>${THEME_INIT_SCRIPT}</script><script src="/_next/static/chunks/a.js" async=""></script></head>
<body><script>self.__next_f=self.__next_f||[];</script><SCRIPT type="text/javascript">a&amp;&lt;b</SCRIPT><script type="module">m()</script>
<script type="application/json">{"inert":1}</script><script type="application/ld+json">{}</script><script id="x" async src=/b.js></script></body></html>`;
    expect(inlineScripts(html)).toEqual([THEME_INIT_SCRIPT, "self.__next_f=self.__next_f||[];", "a&amp;&lt;b", "m()"]);
  });

  it("hashes each distinct script once, as a CSP hash source", () => {
    const html = "<script>one()</script><script>one()</script><script>two()</script>";
    expect(inlineScriptHashes(html)).toEqual([sha("one()"), sha("two()")]);
    expect(scriptHashSource("one()")).toBe(sha("one()"));
    expect(THEME_INIT_SCRIPT_HASH).toBe(sha(THEME_INIT_SCRIPT));
  });
});

describe("prerenderedFile", () => {
  it("looks only for public pages, by their path, in the build's app folder", () => {
    expect(prerenderedFile("/login", ".next", "/srv")).toBe(path.join("/srv", ".next", "server", "app", "login.html"));
    expect(prerenderedFile("/register/", ".next-e2e", "/srv")).toBe(path.join("/srv", ".next-e2e", "server", "app", "register.html"));
    for (const pathname of ["/dashboard", "/forum", "/", "/profile/abc", "/no/such/page", "/../login", "/login/../../x"]) {
      expect(prerenderedFile(pathname, ".next", "/srv")).toBeNull();
    }
  });
});

describe("prerenderedScriptHashes", () => {
  let root: string | undefined;
  afterEach(() => {
    vi.unstubAllEnvs();
    if (root) rmSync(root, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it("reads a built page once, and answers null for pages rendered per request or under next dev", async () => {
    root = mkdtempSync(path.join(os.tmpdir(), "static-pages-"));
    mkdirSync(path.join(root, ".next-test", "server", "app"), { recursive: true });
    const file = path.join(root, ".next-test", "server", "app", "login.html");
    writeFileSync(file, "<script>first()</script>");
    vi.spyOn(process, "cwd").mockReturnValue(root);
    vi.stubEnv("NEXT_DIST_DIR", ".next-test");
    vi.stubEnv("NODE_ENV", "development");
    vi.resetModules();
    const dev = await import("@/lib/csp/static-pages");
    expect(dev.prerenderedScriptHashes("/login")).toBeNull();

    vi.stubEnv("NODE_ENV", "production");
    vi.resetModules();
    const { prerenderedScriptHashes } = await import("@/lib/csp/static-pages");
    expect(prerenderedScriptHashes("/login")).toEqual([sha("first()")]);
    writeFileSync(file, "<script>second()</script>");
    expect(prerenderedScriptHashes("/login")).toEqual([sha("first()")]);
    expect(prerenderedScriptHashes("/forgot-password")).toBeNull();
    expect(prerenderedScriptHashes("/dashboard")).toBeNull();
  });
});

describe("the prerendered public pages stay the build's bytes", () => {
  // Their CSP allows the build's inline scripts by hash: revalidating the root layout would make
  // Next render them again with other bytes, and every inline script would be refused.
  it("no server code revalidates the root path", () => {
    const roots = ["app", "lib", "components"];
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && /revalidatePath\(\s*["']\/["']/.test(readFileSync(file, "utf8"))) offenders.push(file);
      }
    };
    roots.forEach(walk);
    expect(offenders).toEqual([]);
  });
});
