/** Tag as the API returns it (docs/product/tags.md#fields) and the form the dialog sends. */
export interface Tag {
  id: number;
  name: string;
  color: string;
  /** 1 when the tag is a lane of the kanban board, else 0. */
  kanban: number;
  userId?: number | null;
  /** How many tickets carry the tag. */
  ticketsCount?: number;
  updatedAt?: string;
}

/** `GET /api/tags` answer. */
export interface TagsPage {
  tags: Tag[];
  count: number;
  hasMore: boolean;
}

/** POST /api/tags and PUT /api/tags/{id} body. */
export interface TagForm {
  name: string;
  color: string;
  kanban: number;
  userId?: number;
}

/** A tag as a ticket carries it. */
export interface TicketTag {
  id: number;
  name: string;
  color: string;
}
