/**
 * The last step of `npm run build`: the app's server (server.ts) compiled into one ES module in the
 * build's folder, `<build>/server.mjs`, which `npm start` runs with plain Node. Starting through a
 * TypeScript loader (tsx) cost a second process, a loader thread and a compile at every start.
 * The project's files and what they import (zod) are inlined: one file to read and compile rather
 * than a graph of dozens of modules. Next stays an import: it loads its own files at run time.
 */
import path from "node:path";
import { build } from "esbuild";
import nextConfig from "../next.config";

const outfile = path.join(nextConfig.distDir ?? ".next", "server.mjs");
await build({
  entryPoints: ["server.ts"],
  outfile,
  bundle: true,
  external: ["next"],
  platform: "node",
  format: "esm",
  target: "node24",
  logLevel: "warning",
});
console.log(`The app's server compiled to ${outfile}.`);
