"""The ORM at work: CRUD on every field kind, select_related, annotate / aggregate, a rolled
back transaction. Prints one JSON document of what it saw, which the test compares between
MariaDB and rampmeter."""

import datetime as dt
import json
import uuid
from decimal import Decimal

from django.core.management.base import BaseCommand
from django.db import IntegrityError, connection, transaction
from django.db.models import Avg, Count, F, Max, Q, Sum
from django.db.models.functions import Lower

from shop.models import Author, Book

PARIS = dt.timezone(dt.timedelta(hours=2))


class Command(BaseCommand):
    def handle(self, *args, **options):
        out = {}
        ann = Author.objects.create(name="Ann Émile", born=dt.date(1970, 5, 17),
                                    rating=Decimal("4.25"))
        bob = Author.objects.create(name="Bob", rating=Decimal("3.50"))
        books = [
            Book(author=ann, title="Première", cover=bytes(range(256)),
                 meta={"tags": ["a", "b"], "n": 1, "nested": {"x": None}},
                 price=Decimal("12.30"), published=dt.datetime(2024, 6, 1, 12, 30, tzinfo=PARIS),
                 pages=320, isbn=uuid.UUID(int=1)),
            Book(author=ann, title="Second", meta={"n": 2}, price=Decimal("8.00"), pages=120),
            Book(author=bob, title="Third", meta=[], price=Decimal("99.99"), pages=10,
                 in_print=False),
        ]
        Book.objects.bulk_create(books)
        out["ids"] = list(Book.objects.order_by("id").values_list("title", "author__name"))
        b = Book.objects.get(title="Première")
        out["first"] = [bytes(b.cover).hex(), b.meta, str(b.price), b.published.isoformat(),
                        b.pages, b.in_print, str(b.isbn)]
        b.price = F("price") + 1
        b.save(update_fields=["price"])
        b.refresh_from_db()
        out["price_after_f"] = str(b.price)
        out["json_lookup"] = sorted(Book.objects.filter(meta__n=1).values_list("title", flat=True))
        out["json_has_key"] = sorted(Book.objects.filter(meta__has_key="tags")
                                     .values_list("title", flat=True))
        out["select_related"] = [(x.title, x.author.name) for x in
                                 Book.objects.select_related("author").order_by("title")]
        out["prefetch"] = [(a.name, sorted(x.title for x in a.books.all())) for a in
                           Author.objects.prefetch_related("books")]
        out["annotate"] = [(a.name, a.n, str(a.total)) for a in Author.objects.annotate(
            n=Count("books"), total=Sum("books__price")).order_by("name")]
        agg = Book.objects.aggregate(avg=Avg("pages"), most=Max("price"), n=Count("id"))
        out["aggregate"] = [str(round(agg["avg"], 4)), str(agg["most"]), agg["n"]]
        out["q"] = sorted(Book.objects.filter(Q(pages__gt=100) | Q(in_print=False))
                          .values_list("title", flat=True))
        # ASCII only: LOWER of non-ASCII letters is issue 13's (SQLite's lower() folds ASCII)
        out["lower"] = list(Author.objects.filter(name="Bob").annotate(l=Lower("name"))
                            .values_list("l", flat=True))
        out["dates"] = [d.isoformat() for d in Book.objects.filter(published__isnull=False)
                        .dates("published", "month")]
        try:
            with transaction.atomic():
                Book.objects.create(author=bob, title="Doomed", price=1)
                raise RuntimeError("roll back")
        except RuntimeError:
            pass
        out["after_rollback"] = Book.objects.filter(title="Doomed").count()
        try:
            with transaction.atomic():
                Book.objects.create(author=bob, title="Third", price=1)
        except IntegrityError as e:
            out["integrity"] = e.args[0]
        with transaction.atomic():
            Book.objects.filter(pages__lt=50).update(pages=F("pages") * 2)
            sid = transaction.savepoint()
            Book.objects.all().delete()
            transaction.savepoint_rollback(sid)
        out["pages"] = list(Book.objects.order_by("title").values_list("pages", flat=True))
        Author.objects.filter(name="Bob").delete()   # cascades to Third
        out["after_cascade"] = Book.objects.count()
        with connection.cursor() as cur:
            cur.execute("SELECT @@time_zone")
            out["time_zone"] = cur.fetchone()[0]
        self.stdout.write(json.dumps(out, sort_keys=True, default=str))
