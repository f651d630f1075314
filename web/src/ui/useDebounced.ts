import { useEffect, useState } from "react";

/** The value, updated only after it stayed unchanged for `ms` milliseconds (search debounce: 500 ms). */
export function useDebounced<T>(value: T, ms = 500): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}
