/**
 * Route-level code splitting: `lazyPage(() => import("./XPage.tsx"), "XPage")` renders the page from its own chunk,
 * with the shared loading state while the chunk arrives, so the initial bundle holds only the shell.
 */
import { lazy, Suspense, type ComponentType } from "react";
import { PageState } from "../ui/PageState.tsx";

export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType {
  const Page = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return function LazyPage() {
    return (
      <Suspense fallback={<PageState loading empty={false}>{null}</PageState>}>
        <Page />
      </Suspense>
    );
  };
}

/**
 * A slot component from its own chunk (`lazyPart(() => import("./X.tsx"), "X")`): nothing is shown while the chunk
 * arrives, so a feature's slot items do not grow the initial bundle.
 */
export function lazyPart<P extends object, M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType<P> {
  const Part = lazy(async () => ({ default: (await load())[name] as ComponentType<P> }));
  return function LazyPart(props: P) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  };
}
