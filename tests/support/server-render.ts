import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isValidElement, type ReactNode } from "react";

/**
 * A server render, counted: runs a tree of server components as Next.js does (each async one
 * awaited, a layout beside its page) without rendering the client components, and measures what
 * the server hands each client component, the props that go into the page's RSC payload.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

function clientFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => /^\s*["']use client["']/.test(readFileSync(file, "utf8")));
}

let clientComponents: Promise<Set<unknown>> | undefined;

/** Every export of the project's 'use client' modules, and of the framework's ones the pages use. */
function clientReferences(): Promise<Set<unknown>> {
  clientComponents ??= (async () => {
    const found = new Set<unknown>();
    const modules = await Promise.all([
      ...[...clientFiles("components"), ...clientFiles("app")].map((file) => import(/* @vite-ignore */ file)),
      import("next/link"),
      import("next/image"),
      import("next/script"),
      import("next/form"),
    ]);
    for (const loaded of modules) for (const value of Object.values(loaded as Record<string, unknown>)) if (value) found.add(value);
    return found;
  })();
  return clientComponents;
}

export type ClientProps = { component: string; bytes: number };

/** What a render handed its client components, largest first, and the bytes of it all. */
export type Rendered = { clientProps: ClientProps[]; payloadBytes: number };

const ELEMENT = "[element]";

/** The props a client component gets as the payload carries them (its child elements are rendered and counted on their own). */
function serialised(props: Record<string, unknown>): string {
  return JSON.stringify(props, (key, value) => {
    if (key === "children" || isValidElement(value)) return ELEMENT;
    if (typeof value === "function") return "[function]";
    return value;
  });
}

type Element = { type: unknown; props: Record<string, unknown> };

/** Renders `tree` on the server, as far as client components, and measures their props. */
export async function renderOnServer(tree: unknown): Promise<Rendered> {
  const clients = await clientReferences();
  const clientProps: ClientProps[] = [];
  const elementsIn = (props: Record<string, unknown>): ReactNode[] =>
    Object.values(props).flatMap((value) => (isValidElement(value) || Array.isArray(value) ? [value as ReactNode] : []));

  const walk = async (node: unknown): Promise<void> => {
    if (node === null || node === undefined || typeof node === "boolean" || typeof node === "string" || typeof node === "number") return;
    if (node instanceof Promise) return walk(await node);
    if (Array.isArray(node)) {
      // Siblings render side by side, as a layout and its page do.
      await Promise.all(node.map(walk));
      return;
    }
    if (!isValidElement(node)) return;
    const { type, props } = node as Element;
    if (clients.has(type)) {
      clientProps.push({ component: nameOf(type), bytes: Buffer.byteLength(serialised(props)) });
      await Promise.all(elementsIn(props).map(walk));
      return;
    }
    if (typeof type === "function") return walk(await (type as (props: unknown) => unknown)(props));
    // Host elements, fragments, Suspense and context providers: their children (and elements passed as props).
    await Promise.all(elementsIn(props).map(walk));
  };

  await walk(tree);
  clientProps.sort((a, b) => b.bytes - a.bytes);
  return { clientProps, payloadBytes: clientProps.reduce((sum, entry) => sum + entry.bytes, 0) };
}

const nameOf = (type: unknown) => (type as { displayName?: string; name?: string }).displayName ?? (type as { name?: string }).name ?? "?";

/** A layout and its page rendered side by side (Next.js starts both at once), the page as the layout's children. */
export function layoutAround(
  layout: (props: { children: ReactNode }) => Promise<ReactNode> | ReactNode,
  page: Promise<ReactNode> | ReactNode,
): Promise<ReactNode[]> {
  return Promise.all([layout({ children: null }), page]);
}
