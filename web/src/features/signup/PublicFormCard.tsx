/** The card of a public account page (/signup, /forgetpsw): the login page's frame around one form submitted with Enter. */
import { Card, Flex } from "@aws-amplify/ui-react";
import type { ReactNode } from "react";

export function PublicFormCard({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <div className="login-page">
      <Card variation="elevated" className="login-card">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <Flex direction="column" gap="1rem">
            {children}
          </Flex>
        </form>
      </Card>
    </div>
  );
}
