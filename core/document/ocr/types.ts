/** The OCR engine's result types are part of its port (core/contracts). */
export type {
  CrossCheck,
  DocumentType,
  ExtractedField,
  FieldName,
  FieldSource,
  MrzSection,
  OcrExtraction,
} from '../../contracts/ocr-engine.js';
