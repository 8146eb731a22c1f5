// @ts-check
/**
 * `npm test`: the checks and every test suite, in three stages that keep the two cores busy while the
 * tests that measure time share them little.
 *
 * 1. Lint, type-check and the web app's component tests, at once: each prints when it ends.
 * 2. The server's tests on SQLite and on PostgreSQL side by side, each pass's timed tests (answer times, long loops of
 *    calls) one file at a time after its others, then the servers under load alone (apps/server/scripts/test.ts).
 * 3. The browser tests, apart from the server's: beside them, a click or a push waited past its timeout.
 *
 * A stage that fails stops the run, as `&&` did, and each step's time is printed at the end.
 */
import { spawn } from 'node:child_process';

/** @typedef {{ title: string, script: string[] }} Step */
/** @typedef {{ title: string, passed: boolean, seconds: number }} Outcome */

/**
 * Runs `npm run <script>`, printed as it goes, or kept and printed whole once it ends so that
 * steps at once do not mix their lines.
 * @param {Step} step
 * @param {boolean} printAsItGoes
 * @returns {Promise<Outcome>}
 */
function run(step, printAsItGoes) {
  const started = performance.now();
  if (printAsItGoes) console.log(`\n=== ${step.title} ===`);
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', ...step.script], { stdio: printAsItGoes ? 'inherit' : 'pipe' });
    /** @type {Buffer[]} */
    const kept = [];
    child.stdout?.on('data', (chunk) => kept.push(chunk));
    child.stderr?.on('data', (chunk) => kept.push(chunk));
    child.once('close', (code) => {
      if (!printAsItGoes) process.stdout.write(`\n=== ${step.title} ===\n${Buffer.concat(kept)}`);
      resolve({ title: step.title, passed: code === 0, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** @type {Step[][]} */
const stages = [
  [
    { title: 'web app, component tests', script: ['test:unit', '-w', 'apps/web'] },
    { title: 'lint', script: ['lint'] },
    { title: 'type-check', script: ['typecheck'] },
  ],
  [{ title: 'server', script: ['test', '-w', 'apps/server'] }],
  [{ title: 'web app, browser tests', script: ['test:e2e', '-w', 'apps/web'] }],
];

const started = performance.now();
/** @type {Outcome[]} */
const outcomes = [];
for (const stage of stages) {
  outcomes.push(...(await Promise.all(stage.map((step, index) => run(step, index === 0)))));
  if (outcomes.some((outcome) => !outcome.passed)) break;
}
console.log('');
for (const outcome of outcomes)
  console.log(`${outcome.title}: ${outcome.passed ? 'passed' : 'FAILED'} in ${Math.round(outcome.seconds)} s`);
console.log(`npm test: ${Math.round((performance.now() - started) / 1000)} s`);
process.exit(outcomes.every((outcome) => outcome.passed) ? 0 : 1);
