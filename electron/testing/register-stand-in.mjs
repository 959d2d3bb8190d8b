// `node --import ./register-stand-in.mjs dist/main.mjs`: `import ... from 'electron'` loads electron-stand-in.mjs.
import { register } from 'node:module';
import { URL } from 'node:url';

const standIn = new URL('./electron-stand-in.mjs', import.meta.url).href;
register(
  `data:text/javascript,${encodeURIComponent(`export async function resolve(specifier, context, next) {
  return specifier === 'electron' ? { url: ${JSON.stringify(standIn)}, shortCircuit: true } : next(specifier, context);
}`)}`,
);
