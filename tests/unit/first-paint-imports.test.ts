import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * First paint stays light: the heavy pages ship no zod (31 kB gzip) and the onboarding's no
 * react-hook-form either; they load on first validation, submit or draft read (dynamic import).
 * This follows each page's client components through their static, value imports (type-only
 * imports and `import()` are not bundled with the page; server actions are called, not bundled)
 * and names the chain to any package that must not be there.
 */
const root = path.resolve(__dirname, "../..");

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith("@/")
    ? path.join(root, spec.slice(2))
    : spec.startsWith(".")
      ? path.resolve(path.dirname(from), spec)
      : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`cannot resolve ${spec} from ${from}`);
}

/** The module names a file imports for their values (what a bundler keeps). */
function valueImports(file: string): { server: boolean; specs: string[] } {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const first = source.statements[0];
  const server = Boolean(
    first && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) && first.expression.text === "use server",
  );
  const specs: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause &&
        !clause.name &&
        bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specs.push(statement.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      !statement.isTypeOnly
    ) {
      specs.push(statement.moduleSpecifier.text);
    }
  }
  return { server, specs };
}

/** The first chain from `entry` to a forbidden package, or null. */
function chainTo(entry: string, forbidden: readonly string[]): string | null {
  const seen = new Set<string>();
  const queue: { file: string; chain: string[] }[] = [{ file: path.join(root, entry), chain: [] }];
  while (queue.length > 0) {
    const { file, chain } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { server, specs } = valueImports(file);
    if (server) continue;
    const here = [...chain, path.relative(root, file)];
    for (const spec of specs) {
      if (forbidden.some((name) => spec === name || spec.startsWith(`${name}/`))) return [...here, spec].join(" -> ");
      const local = resolveLocal(file, spec);
      if (local) queue.push({ file: local, chain: here });
    }
  }
  return null;
}

const settings = readdirSync(path.join(root, "components/settings"))
  .filter((name) => name.endsWith(".tsx"))
  .map((name) => `components/settings/${name}`);

const ZOD = ["zod", "@hookform/resolvers"];

describe("first paint of the heavy pages", () => {
  it.each([
    "components/forum/ForumPage.tsx",
    "components/forum/PostThread.tsx",
    "components/safety/CoupleSafetyActions.tsx",
    "components/profile/CoupleProfileView.tsx",
    "components/events/EventForm.tsx",
    "components/locations/LocationSearch.tsx",
    "components/directory/DirectoryFilters.tsx",
    "components/directory/DirectoryList.tsx",
    "components/directory/DirectoryMap.tsx",
    "components/discover/SuggestionList.tsx",
    ...settings,
  ])("%s imports no zod", (entry) => {
    expect(chainTo(entry, ZOD)).toBeNull();
  });

  it("the onboarding imports neither zod nor react-hook-form until its step forms load", () => {
    expect(chainTo("components/onboarding/OnboardingFlow.tsx", [...ZOD, "react-hook-form"])).toBeNull();
  });

  it("finds a chain when there is one (the step forms themselves)", () => {
    expect(chainTo("components/onboarding/Step1Form.tsx", ZOD)).toMatch(/Step1Form\.tsx -> .*zod$/);
  });
});
