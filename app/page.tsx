import { redirect } from "next/navigation";
import { MAIN_PAGE } from "@/lib/constants";

export default function Index() {
  redirect(MAIN_PAGE);
}
