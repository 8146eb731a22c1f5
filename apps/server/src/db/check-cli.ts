import { describeMismatch, findTallyMismatches } from './check.js';
import { targetDatabase } from './cli.js';
import { openDatabase } from './index.js';

const url = targetDatabase(process.argv[2]);
const database = openDatabase(url);
try {
  const mismatches = await findTallyMismatches(database.db);
  if (mismatches.length === 0) {
    console.log('Every tally matches its rows.');
  } else {
    console.error(`${mismatches.length} tally mismatch${mismatches.length === 1 ? '' : 'es'}:`);
    for (const mismatch of mismatches) console.error(`  ${describeMismatch(mismatch)}`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
