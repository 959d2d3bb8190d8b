import { useEffect, useState } from 'react';

/** An image file's object URL and natural size (null until decoded or when there is no file). */
export interface LoadedImage {
  url: string;
  width: number;
  height: number;
}

/** Object URL and natural size of a picked or captured image; the URL is revoked when the file changes. */
export function useImageFile(file: Blob | null): LoadedImage | null {
  const [loaded, setLoaded] = useState<LoadedImage | null>(null);
  useEffect(() => {
    setLoaded(null);
    if (!file) return undefined;
    const url = URL.createObjectURL(file);
    let live = true;
    const image = new Image();
    image.onload = () => {
      if (live) setLoaded({ url, width: image.naturalWidth, height: image.naturalHeight });
    };
    image.src = url;
    return () => {
      live = false;
      URL.revokeObjectURL(url);
    };
  }, [file]);
  return loaded;
}
