/** The command line from source, through tsx, for tests that spawn it (bin/payconform.js needs a build). */
import { main } from '../../src/cli/main.ts';

await main();
