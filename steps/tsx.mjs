// Lets cucumber import the TypeScript steps: registers tsx's ESM hooks before the .ts files load
// (tsx refuses the `loader` option's module.register path, so plain `npx cucumber-js` needs this).
import { register } from 'tsx/esm/api';

register();
