/**
 * The one-file attachment of a record's dialog (a quick message's media, an announcement's image): the file chosen in
 * this dialog, or the record's saved one, with "remove"; else an "attach" button opening a hidden file input.
 * `useAttachmentChoice(open)` holds the choice (a new file, or dropping the saved one), reset on each opening; the
 * dialog uploads or removes after its save.
 */
import { Button, Flex, Text } from "@aws-amplify/ui-react";
import { useEffect, useRef, useState } from "react";
import { HiddenFileInput } from "./FileInput.tsx";

/** What the user chose in the dialog: a new `file`, or `drop` the saved one; `shownName` is what the field shows. */
export function useAttachmentChoice(open: boolean, savedName: string | null | undefined) {
  const [file, setFile] = useState<File | null>(null);
  const [drop, setDrop] = useState(false);
  useEffect(() => {
    if (!open) return;
    setFile(null);
    setDrop(false);
  }, [open]);
  return {
    file,
    drop,
    shownName: file?.name ?? (drop ? null : savedName),
    choose: (f: File) => {
      setFile(f);
      setDrop(false);
    },
    remove: () => {
      setFile(null);
      setDrop(true);
    },
  };
}

export function AttachmentField(p: {
  label: string;
  choice: ReturnType<typeof useAttachmentChoice>;
  attachText: string;
  removeText: string;
  accept?: string;
  /** Checks a chosen file; false keeps the field as it was (the caller says why). */
  accepts?: (file: File) => boolean;
  /** Test ids `{testId}-media-name`, `{testId}-attach`, `{testId}-file`. */
  testId: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  return (
    <Flex alignItems="center" gap="0.75rem" wrap="wrap">
      <Text fontWeight="bold" fontSize="small">
        {p.label}
      </Text>
      {p.choice.shownName ? (
        <>
          <Text as="span" data-testid={`${p.testId}-media-name`} className="cell-clip">
            {p.choice.shownName}
          </Text>
          <Button size="small" variation="link" onClick={p.choice.remove}>
            {p.removeText}
          </Button>
        </>
      ) : (
        <Button size="small" onClick={() => ref.current?.click()} data-testid={`${p.testId}-attach`}>
          {p.attachText}
        </Button>
      )}
      <HiddenFileInput inputRef={ref} accept={p.accept} testId={`${p.testId}-file`} onFiles={([x]) => x && (p.accepts?.(x) ?? true) && p.choice.choose(x)} />
    </Flex>
  );
}
