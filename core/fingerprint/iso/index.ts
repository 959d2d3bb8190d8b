export {
  decodeIsoRecord,
  encodeIsoRecord,
  isoRecordToFeatures,
  type IsoEncodeOptions,
  type IsoImportOptions,
  type IsoFingerView,
  type IsoRecord,
} from './iso19794-2.js';
