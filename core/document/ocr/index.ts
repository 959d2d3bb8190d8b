/** OCR sub-service: MRZ, printed text (tesseract.js eng) and licence barcodes into one set of fields. */
export { OcrService, type OcrServiceOptions, type BarcodeFields } from './service.js';
export { TesseractPool, type PrintedLine } from './tesseract-pool.js';
export type { OcrExtraction, ExtractedField, DocumentType, FieldName, CrossCheck } from './types.js';
export { mrzDateToIso } from './dates.js';
