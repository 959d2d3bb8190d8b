import type { DecodedImage } from '../imaging/decode.js';
import type { EngineHealth } from './step-result.js';

/** Where an extracted value was read. */
export type FieldSource = 'mrz' | 'printed' | 'barcode';

/** One extracted field. */
export interface ExtractedField {
  value: string;
  source: FieldSource;
  /** 0–1: MRZ values under a valid check digit are near 1; printed text carries the OCR engine's confidence. */
  confidence: number;
}

/** Document types the OCR engine tells apart. */
export type DocumentType = 'passport' | 'id_card' | 'visa' | 'driver_licence' | 'unknown';

/** Names of the fields the engine extracts. */
export type FieldName =
  | 'surname'
  | 'given_names'
  | 'document_number'
  | 'nationality'
  | 'date_of_birth'
  | 'sex'
  | 'expiry_date'
  | 'issuing_country'
  | 'licence_class'
  | 'address';

/** A printed value compared with the MRZ's. */
export interface CrossCheck {
  field: FieldName;
  mrz: string;
  /** The closest printed value, null when none was found. */
  printed: string | null;
  /** `match`: printed equals the MRZ; `mismatch`: a close but different printed value; `not_found`. */
  status: 'match' | 'mismatch' | 'not_found';
}

/** The MRZ part of an extraction. */
export interface MrzSection {
  format: string;
  lines: string[];
  valid: boolean;
  checks: { name: string; valid: boolean }[];
  countries: { name: string; code: string; valid: boolean }[];
  confidence: number;
}

/** What POST /docs/ocr/api/extract answers. */
export interface OcrExtraction {
  document_type: DocumentType;
  fields: Partial<Record<FieldName, ExtractedField>>;
  mrz: MrzSection | null;
  cross_check: CrossCheck[];
  /** Human-readable summary, e.g. why nothing was extracted. */
  message: string;
  ms: number;
}

/** The OCR engine: MRZ, printed text and licence barcodes of a document image into fields. */
export interface OcrEngine {
  /** Extract the fields of one document image; a document without MRZ, barcode or text answers an empty result. */
  extract(image: DecodedImage, request?: { documentType?: DocumentType }): Promise<OcrExtraction>;
  health(): Promise<EngineHealth>;
}
