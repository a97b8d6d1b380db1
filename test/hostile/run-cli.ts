// payconform from source, as a process of its own (bin/payconform.js runs dist/, which a test need not build).
import { main } from '../../src/cli/main.ts';

await main();
