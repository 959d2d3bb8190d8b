/** core's public entry: what the Electron shell (and embedders) may use. */
export { startServer, type RunningServer, type StartOptions } from './server.js';
export { bindAddress, storedBindAddress } from './services/bind-address.js';
export { buildServer, type ServerOptions } from './http/app.js';
export { createServices, disposeServices, type Services } from './services/container.js';
export { setWorkerEntry } from './workers/entry-location.js';
