/**
 * The last step of `npm run build`: the app's server (server.ts) compiled into one ES module in the
 * build's folder, `<build>/server.mjs`, which `npm start` runs with plain Node. Starting through a
 * TypeScript loader (tsx) cost a second process, a loader thread and a compile at every start.
 * Packages stay imports (resolved from node_modules at run time); the project's own files are inlined.
 */
import path from "node:path";
import { build } from "esbuild";
import nextConfig from "../next.config";

const outfile = path.join(nextConfig.distDir ?? ".next", "server.mjs");
await build({
  entryPoints: ["server.ts"],
  outfile,
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node24",
  logLevel: "warning",
});
console.log(`The app's server compiled to ${outfile}.`);
