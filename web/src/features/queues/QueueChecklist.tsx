/** The company's queues as checkboxes with their colours (user and connection dialogs); `value` holds the chosen ids. */
import { CheckboxField, Flex, Text } from "@aws-amplify/ui-react";
import { useQueues } from "./api.ts";

export function QueueChecklist({ legend, emptyText, value, onChange }: { legend: string; emptyText: string; value: number[]; onChange: (ids: number[]) => void }) {
  const queues = useQueues();
  return (
    <fieldset className="fieldset">
      <legend>{legend}</legend>
      {queues.data?.length ? (
        <Flex wrap="wrap" gap="0.25rem 1rem">
          {queues.data.map((q) => (
            <CheckboxField
              key={q.id}
              name="queueIds"
              value={String(q.id)}
              label={
                <span className="queue-chip">
                  <span className="swatch" style={{ background: q.color }} aria-hidden="true" />
                  {q.name}
                </span>
              }
              checked={value.includes(q.id)}
              onChange={(e) => onChange(e.target.checked ? [...value, q.id] : value.filter((x) => x !== q.id))}
            />
          ))}
        </Flex>
      ) : (
        <Text variation="secondary" fontSize="small">
          {emptyText}
        </Text>
      )}
    </fieldset>
  );
}
