import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.join(import.meta.dirname, "../../app");
const SHEETS = ["globals.css", ...readdirSync(path.join(APP, "styles")).map((name) => `styles/${name}`)];

/**
 * The classes a stylesheet owns: those it styles on their own (a selector of one class, no
 * combinator, pseudo-classes aside). Styling another's class inside one's own context
 * (`.invite-actions .button`) is fine; owning it twice is how one feature restyled another's.
 */
function ownedClasses(css: string): Set<string> {
  const owned = new Set<string>();
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, "");
  for (const [, selectors] of withoutComments.matchAll(/([^{}]+)\{/g)) {
    for (const selector of (selectors ?? "").split(",").map((part) => part.trim())) {
      if (/[\s>+~]/.test(selector)) continue;
      const classes = selector.replace(/:[\w-]+(\([^)]*\))?/g, "").match(/\.[\w-]+/g) ?? [];
      if (classes.length === 1) owned.add(classes[0].slice(1));
    }
  }
  return owned;
}

describe("stylesheets", () => {
  it("give every class one owner: no two stylesheets style the same class on its own", () => {
    const owners = new Map<string, string[]>();
    for (const sheet of SHEETS) {
      for (const name of ownedClasses(readFileSync(path.join(APP, sheet), "utf8"))) owners.set(name, [...(owners.get(name) ?? []), sheet]);
    }
    const shared = [...owners].filter(([, sheets]) => sheets.length > 1).map(([name, sheets]) => `${name}: ${sheets.join(", ")}`);
    expect(shared).toEqual([]);
  });
});
