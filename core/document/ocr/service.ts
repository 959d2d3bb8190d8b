import sharp from 'sharp';
import type { OcrEngine } from '../../contracts/ocr-engine.js';
import type { EngineHealth } from '../../contracts/step-result.js';
import type { DecodedImage } from '../../imaging/decode.js';
import { workersHealth, type HasLaneStats } from '../../workers/health.js';
import type { MrzReading } from '../mrz/index.js';
import { documentTypeOfMrz, fieldsFromMrz } from './mrz-fields.js';
import { crossCheck, licenceFieldsFromPrinted } from './printed-fields.js';
import type { PrintedLine, TesseractPool } from './tesseract-pool.js';
import type { DocumentType, ExtractedField, FieldName, OcrExtraction } from './types.js';
import type { AamvaFields } from '../features/pdf417/aamva.js';

/** Fields of a licence barcode (AAMVA), dates already ISO: the parser's own field set. */
export type BarcodeFields = AamvaFields;

/** What the OCR service needs; each part is optional so the service degrades to what is built. */
export interface OcrServiceOptions {
  readMrz: (image: DecodedImage) => Promise<MrzReading | null>;
  /** Printed-text reader (tesseract.js `eng`). */
  printed?: TesseractPool;
  /** PDF417 / AAMVA reader of driver's licences (the document-features engine's decoder). */
  readBarcode?: (image: DecodedImage) => Promise<BarcodeFields | null>;
  /** The worker lanes its readers run on, reported by `health()` (a lane that cannot serve makes it `error`). */
  lanes?: readonly HasLaneStats[];
  now?: () => Date;
}

/** Longest side of the copy given to the printed-text reader: enough for ID print, bounded cost. */
const PRINTED_MAX_SIDE = 1800;

/** The OCR sub-service: MRZ, printed text and licence barcodes into one set of fields. */
export class OcrService implements OcrEngine {
  constructor(private readonly options: OcrServiceOptions) {}

  /** The readers it runs, for the health route. */
  health(): Promise<EngineHealth> {
    const models = ['ppocr_rec (MRZ)'];
    if (this.options.printed) models.push('tesseract.js eng (printed)');
    if (this.options.readBarcode) models.push('zxing PDF417 (barcode)');
    return Promise.resolve({ status: 'ok', models, ...workersHealth(this.options.lanes ?? []) });
  }

  /** Extract the fields of one document image. A document without MRZ, barcode or text answers an empty result. */
  async extract(image: DecodedImage, request: { documentType?: DocumentType } = {}): Promise<OcrExtraction> {
    const started = performance.now();
    const reading = await this.options.readMrz(image);
    const printed = this.options.printed
      ? await readPrinted(this.options.printed, image, reading?.region ?? null)
      : [];
    const claimed =
      request.documentType && request.documentType !== 'unknown' ? request.documentType : undefined;
    const guessed = reading ? documentTypeOfMrz(reading) : (claimed ?? documentTypeOfText(printed));
    const wantsBarcode = guessed === 'driver_licence' || (!reading && guessed === 'unknown');
    const barcode = wantsBarcode && this.options.readBarcode ? await this.options.readBarcode(image) : null;
    const documentType: DocumentType = reading ? guessed : barcode ? 'driver_licence' : guessed;

    const fields: Partial<Record<FieldName, ExtractedField>> = {};
    const fill = (more: Partial<Record<FieldName, ExtractedField>>): void => {
      for (const [name, field] of Object.entries(more) as [FieldName, ExtractedField][])
        fields[name] ??= field;
    };
    if (reading) fill(fieldsFromMrz(reading, this.options.now?.() ?? new Date()));
    if (barcode) fill(fieldsFromBarcode(barcode));
    if (documentType === 'driver_licence' || !reading) fill(licenceFieldsFromPrinted(printed));

    const mrz = reading
      ? {
          format: reading.format,
          lines: reading.lines,
          valid: reading.valid,
          checks: reading.checks,
          countries: reading.countries,
          confidence: Number(reading.confidence.toFixed(3)),
        }
      : null;
    const checks = reading ? crossCheck(fields, printed) : [];
    return {
      document_type: documentType,
      fields,
      mrz,
      cross_check: checks,
      message: messageOf(reading, barcode !== null, printed.length, Object.keys(fields).length, checks),
      ms: Math.round(performance.now() - started),
    };
  }
}

/** Printed lines of the document with the MRZ painted out, so the cross-check never compares the MRZ with itself. */
async function readPrinted(
  pool: TesseractPool,
  image: DecodedImage,
  mrz: MrzReading['region'] | null,
): Promise<PrintedLine[]> {
  let pipeline = sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } });
  if (mrz && mrz.width > 0 && mrz.height > 0) {
    const cover = await sharp({
      create: { width: mrz.width, height: mrz.height, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    pipeline = sharp(
      await pipeline
        .composite([{ input: cover, left: mrz.x, top: mrz.y }])
        .png()
        .toBuffer(),
    );
  }
  const png = await pipeline
    .resize(PRINTED_MAX_SIDE, PRINTED_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .png()
    .toBuffer();
  return pool.recognizeLines(png);
}

function documentTypeOfText(lines: readonly PrintedLine[]): DocumentType {
  const text = lines
    .map((l) => l.text)
    .join(' ')
    .toUpperCase();
  if (/DRIVER|DRIVING|LICEN[CS]E|PERMIS DE CONDUIRE|FÜHRERSCHEIN/.test(text)) return 'driver_licence';
  if (/PASSPORT|PASSEPORT|REISEPASS/.test(text)) return 'passport';
  if (/\bVISA\b/.test(text)) return 'visa';
  if (/IDENTITY|IDENTITÉ|IDENTITE|ID CARD|PERSONALAUSWEIS/.test(text)) return 'id_card';
  return 'unknown';
}

function fieldsFromBarcode(b: BarcodeFields): Partial<Record<FieldName, ExtractedField>> {
  const out: Partial<Record<FieldName, ExtractedField>> = {};
  // A decoded PDF417 carries Reed-Solomon error correction: its values are as sure as OCR gets.
  const put = (name: FieldName, value: string | undefined): void => {
    if (value) out[name] = { value, source: 'barcode', confidence: 0.99 };
  };
  put('document_number', b.documentNumber);
  put('surname', b.lastName);
  put('given_names', [b.firstName, b.middleName].filter(Boolean).join(' ') || undefined);
  put('date_of_birth', b.birthDate);
  put('expiry_date', b.expiryDate);
  put('sex', b.sex);
  put('licence_class', b.vehicleClass);
  put('issuing_country', b.country);
  const address = [b.street, [b.city, b.state, b.postalCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  put('address', address || undefined);
  return out;
}

function messageOf(
  reading: MrzReading | null,
  barcode: boolean,
  printedLines: number,
  fieldCount: number,
  checks: { status: string }[],
): string {
  if (!reading && !barcode && printedLines === 0)
    return 'No MRZ, barcode or readable text was found on the image.';
  if (fieldCount === 0) return 'Text was found, but no MRZ, barcode or labelled field to extract.';
  const parts: string[] = [];
  if (reading)
    parts.push(
      reading.valid
        ? `${reading.format} MRZ read; every check digit is valid.`
        : `${reading.format} MRZ read, but some check digits fail: treat its fields with care.`,
    );
  else parts.push('No MRZ found.');
  if (barcode) parts.push('Licence barcode decoded.');
  const mismatches = checks.filter((c) => c.status === 'mismatch').length;
  if (mismatches) parts.push(`${mismatches} printed field(s) disagree with the MRZ.`);
  return parts.join(' ');
}
