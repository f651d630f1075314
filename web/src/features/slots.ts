/**
 * The slots of the screens (`FeatureSlots` in `types.ts`): the registry hands its feature list over once
 * (`registerSlots`), and each host reads its slot with `useSlot(name)`, so a host inside a feature never imports the
 * registry (which imports every feature) and a feature adds to another's screen through its own `Feature` object.
 */
import { usePlanFlags } from "../api/company.ts";
import { useSession } from "../api/session.ts";
import { mayAccess } from "./access.tsx";
import type { Access, Feature, FeatureSlots } from "./types.ts";

let registered: readonly Feature[] = [];

/** Called by the registry with THE feature list. */
export function registerSlots(list: readonly Feature[]): void {
  registered = list;
}

type Item<K extends keyof FeatureSlots> = NonNullable<FeatureSlots[K]>[number];

/** Every feature's items of one slot, in `order` (lower first; registry order between equals and for providers). */
export function slotItems<K extends keyof FeatureSlots>(slot: K): Item<K>[] {
  const items = registered.flatMap((f) => (f.slots?.[slot] ?? []) as Item<K>[]);
  return items.map((x, i) => ({ x, i, o: "order" in x ? (x.order as number) : 0 })).sort((a, b) => a.o - b.o || a.i - b.i).map((e) => e.x);
}

/** The items of one slot the logged-in user may see (each item's `access`, with the company's plan flags). */
export function useSlot<K extends keyof FeatureSlots>(slot: K): Item<K>[] {
  const user = useSession()?.user;
  const items = slotItems(slot);
  const needsPlan = items.some((x) => (x.access as Access | undefined)?.planFlag);
  const plan = usePlanFlags(needsPlan ? user?.companyId : undefined);
  if (!user) return [];
  return items.filter((x) => mayAccess(user, x.access, plan.data));
}
