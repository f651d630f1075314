/**
 * A hidden file input opened by a button elsewhere (`inputRef.current?.click()`): hands over the chosen files and
 * clears itself, so choosing the same file again fires again.
 */
import type { RefObject } from "react";

export function HiddenFileInput({
  inputRef,
  onFiles,
  accept,
  multiple,
  testId,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  onFiles: (files: File[]) => void;
  accept?: string;
  multiple?: boolean;
  testId?: string;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      hidden
      multiple={multiple}
      accept={accept}
      data-testid={testId}
      onChange={(e) => {
        const files = Array.from(e.target.files ?? []);
        e.target.value = "";
        if (files.length) onFiles(files);
      }}
    />
  );
}
