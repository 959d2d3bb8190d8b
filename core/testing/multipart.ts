import crypto from 'node:crypto';

/** One part of a multipart body built by tests and benchmarks. */
export type FormPart =
  { name: string; value: string } | { name: string; filename: string; contentType?: string; data: Buffer };

/** Build a multipart/form-data body and its content-type header (for app.inject and raw HTTP clients). */
export function buildMultipart(parts: FormPart[]): { body: Buffer; contentType: string } {
  const boundary = `----idv${crypto.randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
