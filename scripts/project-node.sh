# Sourced by the commands that run the project (scripts/test-all.sh, scripts/run-app.sh) from the
# repository's root, once the dependencies are installed: puts node_modules/.bin first on PATH, so
# every `node`, `npx` and `npm run` after it runs on Node 24 from the `node` devDependency (the npm
# registry's package, a binary inside it), whatever Node the machine has. The machine's own Node
# only runs npm for the install.
export PATH="$PWD/node_modules/.bin:$PATH"
if [ "$(node -p 'process.versions.node.split(".")[0]')" != 24 ]; then
  echo "Expected Node 24 from node_modules/.bin/node (the node devDependency), got $(node -v): run npm ci." >&2
  exit 1
fi
