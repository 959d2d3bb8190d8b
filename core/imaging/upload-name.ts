/**
 * How a message names an upload: "The selfie image", but "The image" for a field called `file` or `image`
 * (never "The file file").
 */
export function uploadName(field: string, noun: 'file' | 'image' | 'BMP file'): string {
  return field === 'file' || field === 'image' ? `The ${noun}` : `The ${field} ${noun}`;
}
