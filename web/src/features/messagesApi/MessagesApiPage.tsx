/**
 * /messages-api (docs/product/messages-api.md#the-page): how other systems send through a connection (copyable curl
 * examples for text, files and the status), and a test form (token, number, text, file) that sends through the API
 * with the typed token and shows its answer. Only for plans with the external API (the route's access).
 */
import { Button, Flex, Heading, Text, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { Copy, Paperclip, Send, X } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { HttpError } from "../../api/client.ts";
import { HiddenFileInput } from "../../ui/kit/FileInput.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { useTestSend } from "./api.ts";
import "./messages-api.css";

/** The curl examples, with this site's address. */
function examples(origin: string) {
  const url = `${origin}/api/messages/send`;
  return {
    text: `curl -X POST '${url}' \\\n  -H 'Authorization: Bearer SEU_TOKEN' \\\n  -H 'Content-Type: application/json' \\\n  -H 'Idempotency-Key: pedido-123' \\\n  -d '{"number": "5511988887777", "body": "Olá!"}'`,
    files: `curl -X POST '${url}' \\\n  -H 'Authorization: Bearer SEU_TOKEN' \\\n  -F 'number=5511988887777' \\\n  -F 'body=Segue o boleto' \\\n  -F 'medias=@boleto.pdf'`,
    status: `curl '${url}/ID_DA_MENSAGEM' \\\n  -H 'Authorization: Bearer SEU_TOKEN'`,
  };
}

function Example({ title, code }: { title: string; code: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success(t("messagesApi.copied"));
    } catch {
      toast.error(t("messagesApi.copyFailed"));
    }
  };
  return (
    <div className="messages-api-example">
      <Flex justifyContent="space-between" alignItems="center" gap="0.5rem">
        <Text fontWeight="bold">{title}</Text>
        <Button size="small" variation="link" onClick={copy} aria-label={`${t("messagesApi.copy")}: ${title}`}>
          <Copy size={16} aria-hidden /> {t("messagesApi.copy")}
        </Button>
      </Flex>
      <pre>
        <code>{code}</code>
      </pre>
    </div>
  );
}

export function MessagesApiPage() {
  const { t } = useTranslation();
  const titleId = useId();
  const ex = examples(location.origin);
  const send = useTestSend();
  const [token, setToken] = useState("");
  const [number, setNumber] = useState("");
  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const missing = { token: !token.trim(), number: !number.trim(), body: !body.trim() };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (missing.token || missing.number || missing.body) return;
    send.mutate({ token, number, body, file });
  };
  const err = send.error;
  const answer = send.data
    ? JSON.stringify(send.data, null, 2)
    : err instanceof HttpError
      ? `${err.status} ${JSON.stringify(err.body, null, 2)}`
      : null;

  return (
    <section className="page messages-api-page" aria-labelledby={titleId}>
      <Flex className="page-header" alignItems="baseline" gap="0.5rem" wrap="wrap">
        <Heading level={2} id={titleId}>
          {t("messagesApi.title")}
        </Heading>
      </Flex>
      <div className="messages-api-body">
        <div className="messages-api-docs">
          <Text>{t("messagesApi.intro")}</Text>
          <Heading level={3}>{t("messagesApi.docsTitle")}</Heading>
          <Example title={t("messagesApi.sendText")} code={ex.text} />
          <Example title={t("messagesApi.sendFiles")} code={ex.files} />
          <Example title={t("messagesApi.status")} code={ex.status} />
          <Text variation="secondary" fontSize="small">
            {t("messagesApi.idempotency")}
          </Text>
        </div>
        <form className="messages-api-test" onSubmit={submit} noValidate aria-label={t("messagesApi.testTitle")}>
          <Heading level={3}>{t("messagesApi.testTitle")}</Heading>
          <TextField
            label={t("messagesApi.token")}
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            hasError={touched && missing.token}
            errorMessage={t("messagesApi.required")}
            data-testid="messages-api-token"
          />
          <TextField
            label={t("messagesApi.number")}
            descriptiveText={t("messagesApi.numberHint")}
            value={number}
            inputMode="numeric"
            onChange={(e) => setNumber(e.target.value)}
            hasError={touched && missing.number}
            errorMessage={t("messagesApi.required")}
            data-testid="messages-api-number"
          />
          <TextAreaField
            label={t("messagesApi.body")}
            value={body}
            rows={3}
            onChange={(e) => setBody(e.target.value)}
            hasError={touched && missing.body}
            errorMessage={t("messagesApi.required")}
            data-testid="messages-api-body"
          />
          <Flex alignItems="center" gap="0.5rem" wrap="wrap">
            <Button size="small" onClick={() => fileRef.current?.click()}>
              <Paperclip size={16} aria-hidden /> {t("messagesApi.file")}
            </Button>
            {file && (
              <Flex alignItems="center" gap="0.25rem" className="messages-api-file">
                <Text fontSize="small" data-testid="messages-api-file-name">
                  {file.name}
                </Text>
                <Button size="small" variation="link" onClick={() => setFile(null)} aria-label={t("messagesApi.removeFile")}>
                  <X size={16} aria-hidden />
                </Button>
              </Flex>
            )}
            <HiddenFileInput inputRef={fileRef} onFiles={(files) => setFile(files[0] ?? null)} testId="messages-api-file" />
          </Flex>
          <Button type="submit" variation="primary" isLoading={send.isPending} loadingText={t("messagesApi.sending")} data-testid="messages-api-send">
            <Send size={16} aria-hidden /> {t("messagesApi.send")}
          </Button>
          <div className="messages-api-answer">
            <Text fontWeight="bold">{t("messagesApi.answer")}</Text>
            {err && <Text variation="error" role="alert">{errorMessage(err)}</Text>}
            {answer ? (
              <pre data-testid="messages-api-answer">
                <code>{answer}</code>
              </pre>
            ) : (
              <Text variation="secondary" fontSize="small">
                {t("messagesApi.noAnswer")}
              </Text>
            )}
          </div>
        </form>
      </div>
    </section>
  );
}
