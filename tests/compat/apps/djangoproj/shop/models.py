from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=100, unique=True)
    born = models.DateField(null=True)
    rating = models.DecimalField(max_digits=5, decimal_places=2, default=0)

    class Meta:
        ordering = ["name"]


class Book(models.Model):
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="books")
    title = models.CharField(max_length=200, db_index=True)
    cover = models.BinaryField(null=True)
    meta = models.JSONField(default=dict)
    price = models.DecimalField(max_digits=8, decimal_places=2)
    published = models.DateTimeField(null=True)
    added = models.DateTimeField(auto_now_add=True)
    pages = models.PositiveIntegerField(default=0)
    in_print = models.BooleanField(default=True)
    isbn = models.UUIDField(null=True)

    class Meta:
        indexes = [models.Index(fields=["price", "pages"])]
        constraints = [models.UniqueConstraint(fields=["author", "title"], name="one_title")]
