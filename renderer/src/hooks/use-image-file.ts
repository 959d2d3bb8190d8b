import { useEffect, useState } from 'react';

/** An image file's object URL and natural size (null until decoded or when there is no file). */
export interface LoadedImage {
  url: string;
  width: number;
  height: number;
}

/** Object URL and natural size of a picked or captured image; the URL is revoked when the file changes. */
export function useImageFile(file: Blob | null): LoadedImage | null {
  const loaded = useImageFileState(file);
  return loaded === 'undecodable' ? null : loaded;
}

/** Like `useImageFile`, saying 'undecodable' when the browser cannot draw the file (TIFF, some BMPs). */
export function useImageFileState(file: Blob | null): LoadedImage | 'undecodable' | null {
  const [loaded, setLoaded] = useState<LoadedImage | 'undecodable' | null>(null);
  useEffect(() => {
    setLoaded(null);
    if (!file) return undefined;
    const url = URL.createObjectURL(file);
    let live = true;
    const image = new Image();
    image.onload = () => {
      if (live) setLoaded({ url, width: image.naturalWidth, height: image.naturalHeight });
    };
    image.onerror = () => {
      if (live) setLoaded('undecodable');
    };
    image.src = url;
    return () => {
      live = false;
      URL.revokeObjectURL(url);
    };
  }, [file]);
  return loaded;
}
