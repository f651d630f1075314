/**
 * Amplify UI's password field with its button and screen-reader announcements ("Password is hidden" / "shown") in the
 * user's language; every password box of the app uses this one.
 */
import { PasswordField as AmplifyPasswordField, type PasswordFieldProps } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";

export function PasswordField(props: PasswordFieldProps) {
  const { t } = useTranslation();
  return (
    <AmplifyPasswordField
      showPasswordButtonLabel={t("login.showPassword")}
      hidePasswordButtonLabel={t("login.hidePassword")}
      passwordIsHiddenLabel={t("login.passwordIsHidden")}
      passwordIsShownLabel={t("login.passwordIsShown")}
      {...props}
    />
  );
}
