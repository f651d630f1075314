/**
 * The Settings page's Logo tab (super users; docs/product/logos.md): a destination, a PNG, ICO or SVG file and Enviar;
 * the current logos below, in destination order, each previewed on its theme's background. The new logo shows at once
 * wherever it is used, on this tab and every other open one.
 */
import { Button, Card, Flex, Heading, SelectField, Text } from "@aws-amplify/ui-react";
import { LOGO_REFS, type LogoRef, type LogoView } from "@atende/shared/logos/schema";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { HiddenFileInput } from "../../ui/kit/FileInput.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { useLogos, useUploadLogo } from "./api.ts";

const ACCEPT = ".png,.ico,.svg,image/png,image/x-icon,image/vnd.microsoft.icon,image/svg+xml";
const accepted = (f: File) => /\.(png|ico|svg)$/i.test(f.name);
/** The current logos in the destinations' order (the select's). */
const byDestination = (a: LogoView, b: LogoView) => LOGO_REFS.indexOf(a.ref) - LOGO_REFS.indexOf(b.ref);

export function LogoTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const logos = useLogos();
  const upload = useUploadLogo();
  const [ref, setRef] = useState<LogoRef | "">("");
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const submit = async () => {
    const missing = !file ? t("logos.noFile") : !ref ? t("logos.noDestination") : !accepted(file) ? t("logos.wrongType") : null;
    setProblem(missing);
    if (missing || !file || !ref) return;
    try {
      await upload.mutateAsync({ ref, file });
      toast.success(t("logos.sent"));
      setFile(null);
    } catch (err) {
      toast.error(errorMessage(err, t));
    }
  };

  return (
    <Flex direction="column" gap="1rem" className="logo-tab" data-testid="logo-tab">
      <Heading level={4}>{t("logos.title")}</Heading>
      <Text>{t("logos.intro")}</Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Flex direction="column" gap="0.75rem" maxWidth="32rem">
          <SelectField label={t("logos.destination")} value={ref} onChange={(e) => setRef(e.target.value as LogoRef)} data-testid="logo-ref">
            <option value="" disabled>
              {t("logos.choose")}
            </option>
            {LOGO_REFS.map((r) => (
              <option key={r} value={r}>
                {t(`logos.ref.${r}`)}
              </option>
            ))}
          </SelectField>
          <Flex alignItems="center" gap="0.5rem" wrap="wrap">
            <HiddenFileInput inputRef={input} accept={ACCEPT} onFiles={(files) => setFile(files[0] ?? null)} testId="logo-file" />
            <Button type="button" size="small" onClick={() => input.current?.click()}>
              {t("logos.pick")}
            </Button>
            <Text as="span" data-testid="logo-file-name">{file ? file.name : t("logos.none")}</Text>
          </Flex>
          {problem && (
            <Text role="alert" variation="error" data-testid="logo-problem">
              {problem}
            </Text>
          )}
          <Button type="submit" variation="primary" isLoading={upload.isPending} alignSelf="flex-start" data-testid="logo-send">
            {t("logos.send")}
          </Button>
        </Flex>
      </form>
      <Heading level={5}>{t("logos.current")}</Heading>
      {logos.isLoading ? (
        <Text>{t("logos.loading")}</Text>
      ) : !logos.data?.length ? (
        <Text>{t("logos.empty")}</Text>
      ) : (
        <div className="logo-grid">
          {[...logos.data].sort(byDestination).map((l) => (
            <Card key={l.ref} variation="outlined" className={`logo-card ${l.ref.endsWith("-dark") ? "logo-card-dark" : "logo-card-light"}`}>
              <img src={l.url} alt={t(`logos.ref.${l.ref}`)} />
              <Text fontSize="small">{t(`logos.ref.${l.ref}`)}</Text>
            </Card>
          ))}
        </div>
      )}
    </Flex>
  );
}
