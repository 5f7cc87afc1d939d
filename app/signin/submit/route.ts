// POST /signin/submit: the sign-in form's target (a route handler, so a throttled attempt gets 429).
import { signInRequest } from '@/lib/web/sign-in';

export const POST = (req: Request) => signInRequest(req);
