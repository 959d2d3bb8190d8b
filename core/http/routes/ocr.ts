import type { FastifyInstance } from 'fastify';
import { CoreError } from '../../errors.js';
import type { DocumentType } from '../../contracts/ocr-engine.js';
import type { Services } from '../../services/container.js';
import { readJsonImage, readJsonText } from '../intake.js';
import {
  apiKeySecurity,
  described,
  documentOnlyValidator,
  errorResponses,
  IMAGE_ROUTE_ERRORS,
} from '../schemas.js';
import { notImplemented } from './not-implemented.js';
import { DOCUMENT_TYPES, ExtractBody, ExtractResult } from './ocr-schemas.js';

function parseDocumentType(value: string | undefined): DocumentType | undefined {
  if (value === undefined || value === '') return undefined;
  if ((DOCUMENT_TYPES as readonly string[]).includes(value)) return value as DocumentType;
  throw new CoreError('FIELD_INVALID', `document_type must be one of ${DOCUMENT_TYPES.join(', ')}.`, {
    field: 'document_type',
  });
}

/** Routes of the OCR sub-service: POST /docs/ocr/api/extract. */
export function registerOcrRoutes(app: FastifyInstance, services: Services): void {
  app.post(
    '/docs/ocr/api/extract',
    {
      // The body is read by intake.ts (base64, limits, decoding); the schema documents it.
      validatorCompiler: documentOnlyValidator,
      schema: {
        tags: ['ocr'],
        summary: 'Extract the fields of a passport, ID card, visa or driving licence (JSON, base64 image)',
        description:
          'Reads the MRZ (every check digit verified and repaired where the usual OCR-B confusions allow), the printed ' +
          'text and, for driving licences, the PDF417 barcode. A document without any of them answers 200 with empty ' +
          'fields and a message.',
        security: apiKeySecurity,
        body: ExtractBody,
        response: {
          200: described(
            'The fields read (MRZ, printed text, barcode), with their confidence.',
            ExtractResult,
          ),
          ...errorResponses(IMAGE_ROUTE_ERRORS),
        },
      },
    },
    async (request) => {
      const ocr = services.ocr ?? notImplemented('The OCR engine');
      const documentType = parseDocumentType(readJsonText(request.body, 'document_type', 40));
      const image = (await readJsonImage(request, 'image', services, { purposes: ['document'] }))!;
      const result = await ocr.extract(image, documentType ? { documentType } : {});
      request.idv.resultStatus = 'SUCCESS';
      return result;
    },
  );
}
