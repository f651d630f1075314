/**
 * The to-do list (docs/product/helps.md#to-do-list): /todolist, an attendance item of the side menu for every user;
 * its tasks live only in the browser (no API).
 */
import { lazyPage } from "../lazy.tsx";
import { type Feature, onePage } from "../types.ts";
import { todoMenuTexts, todoTexts } from "./i18n.ts";
import "./todo.css";

const TodoPage = lazyPage(() => import("./TodoPage.tsx"), "TodoPage");

export const todoFeature: Feature = {
  ...onePage("todolist", <TodoPage />, "attendance", 40),
  texts: { todo: todoTexts, menu: todoMenuTexts },
};
