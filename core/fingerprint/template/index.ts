export { decodeTemplate, encodeTemplate, TEMPLATE_FORMAT_VERSION, type Template } from './format.js';
export { openTemplate, sealTemplate } from './crypto.js';
export { KEY_FILE_NAME, loadOrCreateTemplateKey, loadOrCreateTemplateKeyFile } from './key-file.js';
