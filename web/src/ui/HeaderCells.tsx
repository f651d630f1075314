/** The column headers of a table page (`<th scope="col">` cells), from a list of labels and optional class names. */
import { TableCell } from "@aws-amplify/ui-react";
import type { ReactNode } from "react";

export interface HeaderColumn {
  label: ReactNode;
  /** e.g. "hide-narrow" (hidden under 600 px) or "col-actions". */
  className?: string;
}

export function HeaderCells({ columns }: { columns: HeaderColumn[] }) {
  return (
    <>
      {columns.map((c, i) => (
        <TableCell key={i} as="th" scope="col" className={c.className}>
          {c.label}
        </TableCell>
      ))}
    </>
  );
}
