// A downloaded file offered as an <a download> over an object URL: clicked once when it
// arrives (the browser saves it) and kept on the page to save again. The URL is released
// when a newer file replaces it or the page closes.
import { useEffect, useRef, useState } from 'react';

export interface SavedFile {
  url: string;
  fileName: string;
  size: number;
}

export function useSavedFile() {
  const [file, setFile] = useState<SavedFile>();
  const link = useRef<HTMLAnchorElement>(null);
  const current = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (file) link.current?.click();
  }, [file]);
  // Read at unmount time (not captured): the URL of the file shown last.
  useEffect(() => () => {
    if (current.current) URL.revokeObjectURL(current.current);
  }, []);
  const save = (blob: Blob, fileName: string) => {
    if (current.current) URL.revokeObjectURL(current.current);
    const url = URL.createObjectURL(blob);
    current.current = url;
    setFile({ url, fileName, size: blob.size });
  };
  return { file, link, save };
}
